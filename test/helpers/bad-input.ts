import { expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from './cli.js';
import { tempDir } from './temp.js';

/** fixtures/bad/: inputs the CLI must refuse, or survive, with a message naming what is wrong. */
const bad = resolve(import.meta.dirname, '../../fixtures/bad');
export const at = (path: string): string => join(bad, path);
export const tiny = at('flags/tiny.yaml');
export const policy = (file: string): string => at(`policies/${file}`);

/** One bad input: the exit code it must give and the message it must print. */
export interface Case {
  name: string;
  args: string[];
  code: number;
  /** What the message (stderr, or stdout for a run that goes on) must say: file, line, field. */
  message: RegExp;
  /** Whether `--out <fresh folder>` is added, and must still not exist afterwards (exit 2 before any work). */
  out?: boolean;
  /** Where the message is (default: stderr, or stdout for a run that goes on). */
  stream?: 'stderr' | 'stdout';
  /** What else must hold afterwards. */
  after?: () => void;
  /** What stdout must say besides (verify's report). */
  stdout?: RegExp;
  /** A run that goes on to report: its reports are written, `summary.md` says this, no lock or journal is left. */
  reported?: RegExp;
}

/** Runs `c` with the built CLI and checks its exit code, its message and what it left behind. */
export async function expectBadInput(c: Case): Promise<void> {
  const out = join(tempDir(), 'out');
  const { code, stderr, stdout } = await cli([...c.args, ...(c.out === true ? ['--out', out] : [])]);
  expect(code, stderr).toBe(c.code);
  expect((c.stream ?? (code === 0 ? 'stdout' : 'stderr')) === 'stdout' ? stdout : stderr).toMatch(c.message);
  c.after?.();
  if (c.stdout !== undefined) expect(stdout).toMatch(c.stdout);
  if (c.reported !== undefined) {
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(c.reported);
    // The other units finished: every planned unit is in the result, and the run let go of --out.
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { units: { strategy: string; summary: { crashed: boolean } }[] };
    expect(result.units.find((u) => u.strategy === 'full')?.summary.crashed ?? false).toBe(false);
    expect(existsSync(join(out, '.lock')) || existsSync(join(out, '.journal.jsonl'))).toBe(false);
  }
  if (code === 2) {
    expect(stderr.trim().split('\n'), 'one line').toHaveLength(1);
    if (c.out === true) expect(existsSync(out), 'nothing written').toBe(false);
  }
}
