import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { cli as cliInProcess } from './cli.js';
import { tempDir } from './temp.js';
import { transpiledPackage } from './transpile.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');

/** The CLI in this process; fails on another exit status than `expected`. */
async function inProcess(args: string[], expected: number): Promise<void> {
  const { code, stderr } = await cliInProcess(args);
  if (code !== expected) throw new Error(`ctxbench ${args.join(' ')} exited ${code}: ${stderr}`);
}

/** The transpiled CLI in a process of its own; fails on another exit status than `expected`. */
async function inChild(cli: string, args: string[], expected: number): Promise<void> {
  try {
    await run(process.execPath, [cli, ...args], { cwd: root });
    if (expected !== 0) throw new Error(`ctxbench ${args.join(' ')} exited 0, not ${expected}`);
  } catch (error) {
    if ((error as { code?: unknown }).code !== expected) throw error;
  }
}

/**
 * `ctxbench run <scenarios> --reports json` with one thread and with two (each must exit
 * `expectedExit`: 1 when a unit crashes for a strategy error), as the two result.json
 * texts. Worker threads run JavaScript, so the two-thread run is the CLI of the sources transpiled
 * into a temporary package (transpile.ts); the one-thread reference runs in this process from the
 * TypeScript source: the same command, without a second process that would load the project and
 * build the tokenizer once more.
 */
export async function resultsOnOneAndTwoThreads(scenarios: string, expectedExit = 0): Promise<{ one: string; two: string }> {
  const cli = join(await transpiledPackage(), 'dist', 'cli', 'main.js');
  const outputs: string[] = [];
  for (const [workers, runCli] of [
    ['1', (args: string[]) => inProcess(args, expectedExit)],
    ['2', (args: string[]) => inChild(cli, args, expectedExit)],
  ] as const) {
    const out = tempDir();
    await runCli(['run', scenarios, '--out', out, '--quiet', '--workers', workers, '--reports', 'json']);
    outputs.push(readFileSync(join(out, 'result.json'), 'utf8'));
  }
  return { one: outputs[0] ?? '', two: outputs[1] ?? '' };
}
