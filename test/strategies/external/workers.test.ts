import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { tempDir, writeFiles } from '../../helpers/temp.js';
import { transpiledPackage } from '../../helpers/transpile.js';
import { cli as cliInProcess } from '../../helpers/cli.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../..');

/** The CLI in this process; fails on a non-zero exit as execFile does. */
async function inProcess(args: string[]): Promise<void> {
  const { code, stderr } = await cliInProcess(args);
  if (code !== 0) throw new Error(`ctxbench ${args.join(' ')} exited ${code}: ${stderr}`);
}

/**
 * Worker threads load a strategy module by path and start policy processes themselves (a planned
 * unit carries only the spec): the CLI runs from the sources transpiled into a temporary package
 * (test/helpers/transpile.ts), with one thread and with two.
 */
describe('strategies of your own on real worker threads', () => {
  it('give the same result.json with 1 and 2 threads; a failing policy process ends its unit alone', { timeout: 300_000 }, async () => {
    const cli = join(await transpiledPackage(), 'dist', 'cli', 'main.js');
    const dir = writeFiles({
      's.yaml': [
        'name: own-strategies',
        'transcript:',
        '  generate: { steps: 14, seed: 4, toolOutputTokens: 500 }',
        'window: 12000',
        'strategies:',
        '  - observation-masking',
        `  - { label: js-masking, module: ${JSON.stringify(join(root, 'examples', 'js-policy', 'masking.mjs'))} }`,
        `  - { label: python-masking, command: [python3, ${JSON.stringify(join(root, 'examples', 'python-policy', 'masking.py'))}] }`,
        `  - { label: exits, command: [node, ${JSON.stringify(join(root, 'fixtures', 'policies', 'misbehaving.mjs'))}, exit, "5"], timeoutMs: 5000 }`,
      ].join('\n'),
    });
    // The one-thread reference runs in this process, from the TypeScript source: the same command,
    // without a second process that would load the project and build the tokenizer once more.
    const outputs: string[] = [];
    for (const [workers, runCli] of [
      ['1', inProcess],
      ['2', (args: string[]) => run(process.execPath, [cli, ...args], { cwd: root })],
    ] as const) {
      const out = tempDir();
      await runCli(['run', dir, '--out', out, '--quiet', '--workers', workers, '--reports', 'json']);
      outputs.push(readFileSync(join(out, 'result.json'), 'utf8'));
    }
    expect(outputs[1], '--workers 2 (threads of the transpiled CLI) against --workers 1 (in this process)').toBe(outputs[0]);
    const units = (JSON.parse(outputs[1] ?? '{}') as { units: { strategy: string; summary: Record<string, unknown> }[] }).units;
    const row = (label: string) => units.find((u) => u.strategy === label)?.summary;
    const { strategy: _a, ...builtIn } = row('observation-masking') ?? {};
    const { strategy: _b, ...js } = row('js-masking') ?? {};
    const { strategy: _c, ...python } = row('python-masking') ?? {};
    expect(js).toEqual(builtIn);
    expect(python).toEqual(builtIn);
    expect(row('exits')).toMatchObject({ steps_completed: 5, crashed: true, crash_kind: 'strategy', crash_step: 5 });
  });
});
