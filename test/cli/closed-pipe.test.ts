import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { transpiledPackage } from '../helpers/transpile.js';
import { tempDir } from '../helpers/temp.js';

const root = resolve(import.meta.dirname, '../..');
const bad = join(root, 'fixtures/bad');

interface Case {
  name: string;
  /** The CLI's arguments (the shell quotes none: paths without spaces). */
  args: string[];
  /** The reader at the end of the pipe: `head -n 0` closes it before the CLI writes anything. */
  reader: string;
  code: number;
}

/**
 * A closed stdout never decides the exit status of a command whose status is its result: the
 * built CLI in its own process, its stdout and stderr piped into a reader that stops early, under
 * `pipefail` as GitHub Actions runs bash. Only commands whose output is the product end quietly.
 */
const CASES: Case[] = [
  {
    name: 'check with a regression | head -1',
    args: ['check', join(bad, 'check/run-groups-1.json'), '--baseline', join(bad, 'check/baseline-groups-4.json')],
    reader: 'head -1',
    code: 1,
  },
  {
    name: 'check with a regression | a reader gone before the first line',
    args: ['check', join(bad, 'check/run-groups-1.json'), '--baseline', join(bad, 'check/baseline-groups-4.json')],
    reader: 'head -n 0',
    code: 1,
  },
  {
    name: 'run --baseline of another seed | a reader gone before the first line',
    args: ['run', join(bad, 'flags/tiny.yaml'), '--seed', '1', '--reports', 'json', '--baseline', join(bad, 'check/baseline-seed-2.json'), '--out', '<out>'],
    reader: 'head -n 0',
    code: 2,
  },
  {
    name: 'verify of a policy that drops results | a reader gone before the first line',
    args: ['verify', join(root, 'examples/broken-policy/drops-results.mjs')],
    reader: 'head -n 0',
    code: 1,
  },
  { name: 'generate | a reader gone before the first line: the product, ends quietly', args: ['generate', '--steps', '50'], reader: 'head -n 0', code: 0 },
];

describe('fixtures/bad: a closed pipe never turns a failure green', () => {
  let main = '';
  beforeAll(async () => {
    main = join(await transpiledPackage(), 'dist', 'cli', 'main.js');
  }, 120_000);

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const args = c.args.map((arg) => (arg === '<out>' ? tempDir() : arg));
    const script = `set -o pipefail; "${process.execPath}" "${main}" ${args.join(' ')} 2>&1 | ${c.reader}`;
    const code = await new Promise<number>((done) => {
      execFile('bash', ['-c', script], (error) => done(error === null ? 0 : typeof error.code === 'number' ? error.code : -1));
    });
    expect(code).toBe(c.code);
  });
});
