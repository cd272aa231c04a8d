import { readdirSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';
import { scenarioFileSchema } from '../scenario/schema.js';
import { describeSchemaError } from '../validate.js';

/** Parses a positive integer flag value or fails with a usage error naming the flag. */
export function parsePositiveInt(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value.replace(/_/g, ''));
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} expects a whole number, got "${value}"`);
    return n;
  };
}

/** The `--strategy-timeout <s>` flag of run, sweep and verify: each strategy hook call's time limit. */
export const STRATEGY_TIMEOUT_FLAG = '--strategy-timeout <s>';
export const STRATEGY_TIMEOUT_HELP = "time limit of each call of a strategy module or policy process, in seconds (default: the scenario's timeoutMs, else 30)";

/** `--strategy-timeout`: seconds (a fraction allowed) as whole milliseconds, at least 1. */
export function parseStrategyTimeout(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--strategy-timeout expects a number of seconds > 0, got "${value}"`);
  return Math.max(1, Math.round(seconds * 1000));
}

/** The `--request-timeout <s>` flag of run and sweep (live providers): each request's time limit. */
export function addRequestTimeoutOption(command: Command): Command {
  return command.option(
    '--request-timeout <s>',
    'live providers: seconds to wait for each answer before the request is aborted (a network failure, retried as one)',
    parseSeconds('--request-timeout'),
    120,
  );
}

/** The default of `--max-retry-wait`: a provider that asks for longer is not waited for. */
const DEFAULT_MAX_RETRY_WAIT_S = 300;

/**
 * The `--max-retry-wait <s>` flag of run and sweep (live providers): a retry the provider asks to
 * wait longer for (a `retry-after` of hours) ends the unit at once, with the reason.
 */
export function addMaxRetryWaitOption(command: Command): Command {
  return command.option(
    '--max-retry-wait <s>',
    `live providers: the longest retry wait in seconds; a provider that asks for longer ends the unit at once, with the reason (default ${DEFAULT_MAX_RETRY_WAIT_S})`,
    parseSeconds('--max-retry-wait'),
    DEFAULT_MAX_RETRY_WAIT_S,
  );
}

/** A positive number of seconds (fractions allowed). */
function parseSeconds(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} expects a number of seconds > 0, got "${value}"`);
    return n;
  };
}

/** Parses a comma-separated list flag. */
export function parseList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Parses an enumerated flag value. */
export function parseChoice<T extends string>(flag: string, choices: readonly T[]): (value: string) => T {
  return (value) => {
    if (!(choices as readonly string[]).includes(value)) throw new UsageError(`${flag} expects one of ${choices.join(', ')}, got "${value}"`);
    return value as T;
  };
}

/** The bundled default suite (`scenarios/` of the package). */
/**
 * The default suite: every scenario under the bundled `scenarios/` folder except `published/`,
 * whose replays of published studies (23 trajectories × four policies, the long Claude log) are run
 * on their own (`ctxbench run scenarios/published/`) to keep `npm start` short.
 */
export function bundledSuite(): string[] {
  const root = fileURLToPath(new URL('../../scenarios/', import.meta.url));
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.name !== 'published' && (entry.isDirectory() || /\.(ya?ml|json)$/.test(entry.name)))
    .map((entry) => join(root, entry.name))
    .sort();
}

/** Whether to colour terminal output: a TTY, and NO_COLOR unset. */
export function useColor(stream: NodeJS.WriteStream): boolean {
  return stream.isTTY === true && (process.env.NO_COLOR ?? '') === '';
}

/**
 * Parses a flag that overrides a scenario field, validated by the scenario file schema itself,
 * so that a value a scenario file may not hold (`--window 0`, `--tpm 0`) is refused the same way,
 * naming the flag. `none` (when `noneAllowed`) asks for no limit and is returned as it is.
 */
export function parseScenarioFlag(flag: string, field: 'window' | 'seed' | 'quota.tpm' | 'quota.rpm', noneAllowed = false): (value: string) => number | 'none' {
  return (value) => {
    if (noneAllowed && value.trim().toLowerCase() === 'none') return 'none';
    const n = value.trim() === '' ? Number.NaN : Number(value.replace(/_/g, ''));
    const [head, tail] = field.split('.') as [string, string | undefined];
    const fragment = tail === undefined ? { [head]: n } : { [head]: { [tail]: n } };
    const parsed = scenarioFileSchema.safeParse({ name: 'flags', transcript: 'flags', ...fragment });
    if (parsed.success) return n;
    const hint = noneAllowed ? `; for no limit write ${flag} none` : '';
    throw new UsageError(`${flag} "${value}": ${describeSchemaError(parsed.error).message.toLowerCase()} (as the scenario field ${field}${hint})`);
  };
}

/**
 * Adds an old spelling of a flag, kept working for scripts: not shown in help, and each use prints
 * one line on stderr naming the spelling to use. Its value is under the old name: read `new ?? old`.
 */
export function addDeprecatedOption(command: Command, flags: string, replacement: string, parse: (value: string) => unknown = (value) => value): Command {
  const option = new Option(flags).hideHelp().argParser((value: string) => {
    process.stderr.write(`ctxbench: ${commandPath(command)} ${option.long ?? flags} is deprecated: use ${replacement}\n`);
    return parse(value);
  });
  return command.addOption(option);
}

/** `probes generate`: the names from below the program down to `command`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent !== null && at !== null; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/**
 * `-o, --out <file>`, the one spelling of "where to write" across commands; `--output`, the old
 * spelling of `probes generate`, still works (deprecated). Read the value with `outOf`.
 */
export function addOutOption(command: Command, description: string): Command {
  return addDeprecatedOption(command.option('-o, --out <file>', description), '--output <file>', '-o/--out');
}

/** The value of `-o/--out` (or of its hidden alias `--output`). */
export function outOf(flags: { out?: string; output?: string }): string | undefined {
  return flags.out ?? flags.output;
}

/** `--help` ends with examples: what each does, then its command line. */
export function addExamples(command: Command, examples: readonly (readonly [string, string])[]): Command {
  // What it does above the command line: long command lines stay whole in an 80-column terminal.
  const lines = examples.map(([line, what]) => `  # ${what}\n  $ ${line}`);
  return command.addHelpText('after', `\nExamples:\n${lines.join('\n')}\n`);
}
