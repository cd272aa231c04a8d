/**
 * Typed harness errors. Only `cli/main.ts` turns them into exit codes:
 * 0 ok, 1 a gate or threshold failed, 2 could not run (usage, config, input, auth), and
 * 128 + the signal (130 SIGINT, 143 SIGTERM) when a run was interrupted and wrote partial reports.
 */
export type ExitCode = 0 | 1 | 2 | 130 | 143;

/** Where in an input file a problem is; every input error names it. */
export interface InputLocation {
  file: string;
  line?: number;
  field?: string;
}

export class HarnessError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode = 2) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** Bad input: a transcript, scenario or probe file that does not validate. */
export class InputError extends HarnessError {
  readonly location: InputLocation;
  constructor(location: InputLocation, problem: string) {
    super(`${formatLocation(location)}: ${problem}`, 2);
    this.location = location;
  }
}

/** Bad command-line usage or options. */
export class UsageError extends HarnessError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** Missing credentials or configuration for a live provider. */
export class ConfigError extends HarnessError {
  constructor(message: string) {
    super(message, 2);
  }
}

/**
 * A live provider cannot be used at all (authentication, permission, unreachable host, exhausted
 * quota): the run stops before anything is written, naming the provider, the URL and the cause.
 */
export class ProviderError extends HarnessError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** A gate (check, threshold) failed: the run worked, the result is not acceptable. */
export class GateError extends HarnessError {
  constructor(message: string) {
    super(message, 1);
  }
}

/**
 * A run stopped by SIGINT or SIGTERM after writing the reports of its finished units (marked
 * partial) and keeping its journal for `--resume`. Exit code 128 + the signal's number, as a shell
 * reports a process the signal ended: a CI step fails, and scripts can tell it from exit 2.
 */
export class InterruptedError extends HarnessError {
  constructor(signal: 'SIGINT' | 'SIGTERM', message: string) {
    super(message, signal === 'SIGINT' ? 130 : 143);
  }
}

export function formatLocation(location: InputLocation): string {
  let text = location.file;
  if (location.line !== undefined) text += `:${location.line}`;
  if (location.field !== undefined && location.field !== '') text += ` (field ${location.field})`;
  return text;
}
