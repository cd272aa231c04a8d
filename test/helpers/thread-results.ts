import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { cli as cliInProcess } from './cli.js';
import { tempDir } from './temp.js';
import { transpiledPackage } from './transpile.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');

/** The CLI in this process; fails on a non-zero exit as execFile does. */
async function inProcess(args: string[]): Promise<void> {
  const { code, stderr } = await cliInProcess(args);
  if (code !== 0) throw new Error(`ctxbench ${args.join(' ')} exited ${code}: ${stderr}`);
}

/**
 * `ctxbench run <scenarios> --reports json` with one thread and with two, as the two result.json
 * texts. Worker threads run JavaScript, so the two-thread run is the CLI of the sources transpiled
 * into a temporary package (transpile.ts); the one-thread reference runs in this process from the
 * TypeScript source: the same command, without a second process that would load the project and
 * build the tokenizer once more.
 */
export async function resultsOnOneAndTwoThreads(scenarios: string): Promise<{ one: string; two: string }> {
  const cli = join(await transpiledPackage(), 'dist', 'cli', 'main.js');
  const outputs: string[] = [];
  for (const [workers, runCli] of [
    ['1', inProcess],
    ['2', (args: string[]) => run(process.execPath, [cli, ...args], { cwd: root })],
  ] as const) {
    const out = tempDir();
    await runCli(['run', scenarios, '--out', out, '--quiet', '--workers', workers, '--reports', 'json']);
    outputs.push(readFileSync(join(out, 'result.json'), 'utf8'));
  }
  return { one: outputs[0] ?? '', two: outputs[1] ?? '' };
}
