#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { escapeControl } from '../control-chars.js';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { HarnessError } from '../errors.js';
import type { CliDeps } from './run-session.js';
import { redactText } from '../redact/index.js';
import { VERSION } from '../version.js';
import { register as registerRun } from './commands/run.js';
import { register as registerStrategies } from './commands/strategies.js';
import { register as registerGenerate } from './commands/generate.js';
import { register as registerImport } from './commands/import.js';
import { register as registerProbes } from './commands/probes.js';
import { register as registerFidelity } from './commands/fidelity.js';
import { register as registerReport } from './commands/report.js';
import { register as registerCheck } from './commands/check.js';
import { register as registerMerge } from './commands/merge.js';
import { register as registerSweep } from './commands/sweep.js';
import { register as registerTune } from './commands/tune.js';
import { register as registerCalibrate } from './commands/calibrate.js';
import { register as registerVerify } from './commands/verify.js';
import { register as registerValidate } from './commands/validate.js';
import { addExamples } from './options.js';
import { configureHelp } from './help.js';
import { tuneV8 } from '../v8-tuning.js';

/** Builds the CLI; each command file maps flags to the library's options. */
export function buildProgram(deps: CliDeps = {}): Command {
  const program = configureHelp(new Command('ctxbench'))
    .description('Replay agent transcripts through context-management strategies; measure tokens, crashes and recall.')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError()
    .hook('preAction', (_program, action) => {
      closedPipe.endsQuietly = ENDS_QUIETLY_ON_CLOSED_PIPE.has(commandPath(action));
    });
  registerRun(program, deps);
  for (const register of [
    registerStrategies,
    registerGenerate,
    registerImport,
    registerProbes,
    registerFidelity,
    registerReport,
    registerCheck,
    registerMerge,
    registerSweep,
    registerTune,
    registerCalibrate,
    registerVerify,
    registerValidate,
  ])
    register(program);
  addExamples(program, [
    ['ctxbench run', 'the bundled suite through every strategy, mocked providers'],
    ['ctxbench generate --steps 200 -o s.ctx.jsonl && ctxbench run s.ctx.jsonl', 'a synthetic session'],
    ['ctxbench run ~/.claude/projects/p/session.jsonl', 'a real agent log, no scenario file needed'],
    ['ctxbench <command> --help', "a command's flags and examples"],
  ]);
  return program;
}

/** Runs the CLI and turns the outcome into an exit code: 0 ok, 1 gate failed, 2 could not run. */
export async function main(argv: string[], deps: CliDeps = {}): Promise<number> {
  try {
    await buildProgram(deps).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof HarnessError) {
      // Messages can quote input (a transcript line, a URL): they are redacted like every artifact.
      // ...and quoted input can hold control characters (ESC sequences, a newline in a label): escaped, one line.
      process.stderr.write(`ctxbench: ${escapeControl(redactText(error.message), '\t')}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

/** The exit codes of a run a signal stopped (errors.ts InterruptedError). */
const STOPPED_BY_SIGINT = 130;
const STOPPED_BY_SIGTERM = 143;

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

/**
 * Commands whose output is the product: a reader that stops early (`ctxbench generate | head`)
 * did not want the rest, so they end quietly with exit 0 on a closed pipe. Every other command's
 * exit status is its result (a gate, a run): a closed stdout must never decide it.
 */
const ENDS_QUIETLY_ON_CLOSED_PIPE = new Set(['generate', 'import', 'probes generate']);
const closedPipe = { endsQuietly: false };

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent != null; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/**
 * What a closed pipe on stdout or stderr does: the commands of ENDS_QUIETLY_ON_CLOSED_PIPE exit 0
 * at once; every other command goes on writing nowhere and ends with the status it computes
 * (a `check … | head -1` under `pipefail` fails when the check does). Other stream errors throw.
 */
export function handleClosedPipe(stream: NodeJS.WriteStream, exit: (code: number) => void = (code) => process.exit(code)): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    if (closedPipe.endsQuietly) exit(0);
  });
}

if (isEntryPoint()) {
  tuneV8();
  handleClosedPipe(process.stdout);
  handleClosedPipe(process.stderr);
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      // A run stopped by SIGINT / SIGTERM has written its partial reports and journal, and let go of
      // its lock: it ends now, not when the unit it dropped gives up (a policy that never answers
      // would hold the process for its whole time limit). What it left running dies with it.
      if (code === STOPPED_BY_SIGINT || code === STOPPED_BY_SIGTERM) process.exit(code);
    },
    (error: unknown) => {
      process.stderr.write(`ctxbench: internal error: ${redactText(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
      process.exitCode = 2;
    },
  );
}
