#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { HarnessError } from '../errors.js';
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
import { register as registerCalibrate } from './commands/calibrate.js';
import { register as registerVerify } from './commands/verify.js';

/** Builds the CLI; each command file maps flags to the library's options. */
export function buildProgram(): Command {
  const program = new Command('ctxbench')
    .description('Replay agent transcripts through context-management strategies; measure tokens, crashes and recall.')
    .version(VERSION)
    .exitOverride()
    .showHelpAfterError();
  for (const register of [registerRun, registerStrategies, registerGenerate, registerImport, registerProbes, registerFidelity, registerReport, registerCheck, registerMerge, registerSweep, registerCalibrate, registerVerify]) register(program);
  return program;
}

/** Runs the CLI and turns the outcome into an exit code: 0 ok, 1 gate failed, 2 could not run. */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof HarnessError) {
      // Messages can quote input (a transcript line, a URL): they are redacted like every artifact.
      process.stderr.write(`ctxbench: ${redactText(error.message)}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`ctxbench: internal error: ${redactText(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
      process.exitCode = 2;
    },
  );
}
