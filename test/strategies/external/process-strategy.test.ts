import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from '../../helpers/cli.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';
import type { RunResult } from '../../../src/metrics/types.js';

const policies = resolve(import.meta.dirname, '../../../fixtures/policies');
const misbehaving = join(policies, 'misbehaving.mjs');

afterEach(() => vi.restoreAllMocks());

function readResult(dir: string): RunResult {
  return JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as RunResult;
}

/** A 10-step session; each policy entry runs `node <fixture> ...args` with a short timeout. */
function scenarioWith(entries: string[]): string {
  return writeFiles({
    's.yaml': [
      'name: policies',
      'transcript:',
      '  generate: { steps: 10, seed: 5, toolOutputTokens: 300 }',
      'window: 200000',
      'strategies:',
      '  - full',
      ...entries,
    ].join('\n'),
  });
}

const entry = (label: string, how: string, step: number, timeoutMs = 1500): string =>
  `  - { label: ${label}, command: [node, ${JSON.stringify(misbehaving)}, ${how}, "${step}"], timeoutMs: ${timeoutMs} }`;

describe('a policy process that fails', () => {
  it('ends only its own unit, as a strategy crash that says why, when it hangs, exits or writes garbage; the other units finish', async () => {
    const out = tempDir();
    const dir = scenarioWith([
      entry('hangs', 'hang', 3, 4_000),
      entry('exits', 'exit', 4, 20_000),
      entry('garbage', 'garbage', 2, 20_000),
      entry('old-protocol', 'bad-hello', 0, 20_000),
    ]);
    const { code, stderr } = await cli(['run', join(dir, 's.yaml'), '--out', out, '--quiet', '--reports', 'json,csv']);
    // Reports are written, and the run fails: a strategy that broke is something CI must see.
    expect(code).toBe(1);
    expect(stderr).toMatch(/4 units crashed for a strategy error: hangs on policies: strategy-timeout: policy `node .*` did not answer the context of step 3/);
    const result = readResult(out);
    const unit = (label: string) => result.units.find((u) => u.strategy === label);
    const crash = (label: string) => unit(label)?.events.find((e) => e.type === 'crash');
    expect(unit('full')?.summary).toMatchObject({ steps_completed: 10, crashed: false });
    expect(unit('hangs')?.summary).toMatchObject({ steps_completed: 3, crashed: true, crash_kind: 'strategy-timeout', crash_step: 3 });
    expect(crash('hangs')).toMatchObject({
      message: expect.stringContaining('did not answer the context of step 3 within 4000 ms (timeoutMs) and was killed'),
    });
    expect(unit('exits')?.summary).toMatchObject({ steps_completed: 4, crashed: true, crash_kind: 'strategy', crash_step: 4 });
    expect(crash('exits')).toMatchObject({
      message: expect.stringContaining('exited (code 3) while ctxbench waited for the context of step 4; its stderr: policy: giving up on purpose'),
    });
    expect(unit('garbage')?.summary).toMatchObject({ steps_completed: 2, crashed: true, crash_kind: 'strategy', crash_step: 2 });
    expect(crash('garbage')).toMatchObject({ message: expect.stringContaining('wrote a line that is not JSON: "this is not JSON"') });
    expect(unit('old-protocol')?.summary).toMatchObject({ steps_completed: 0, crash_kind: 'strategy' });
    expect(crash('old-protocol')).toMatchObject({ message: expect.stringContaining('speaks protocol 99; this ctxbench speaks 1') });
  });

  it('fails its unit when the command cannot be started', async () => {
    const out = tempDir();
    const dir = scenarioWith(['  - { label: missing, command: [ctxbench-no-such-policy-binary] }']);
    expect((await cli(['run', join(dir, 's.yaml'), '--out', out, '--quiet', '--reports', 'json'])).code).toBe(1);
    const crash = readResult(out)
      .units.find((u) => u.strategy === 'missing')
      ?.events.find((e) => e.type === 'crash');
    expect(crash).toMatchObject({
      kind: 'strategy',
      message: expect.stringContaining('policy `ctxbench-no-such-policy-binary` could not be started: spawn ctxbench-no-such-policy-binary ENOENT'),
    });
  });
});

describe('a policy process that asks for a summary', () => {
  it('gets it as a metered call of the unit: overhead tokens and calls, a summary action on the timeline', async () => {
    const out = tempDir();
    const dir = scenarioWith([`  - { label: summarizer, command: [node, ${JSON.stringify(join(policies, 'summarizer.mjs'))}] }`]);
    expect((await cli(['run', join(dir, 's.yaml'), '--out', out, '--quiet', '--reports', 'json'])).code).toBe(0);
    const unit = readResult(out).units.find((u) => u.strategy === 'summarizer');
    // Steps 5 and 10: the second is the end context the probes are asked on, prepared after step 9.
    expect(unit?.summary).toMatchObject({ steps_completed: 10, crashed: false, overhead_calls: 2 });
    expect(unit?.summary.overhead_tokens).toBeGreaterThan(0);
    const summaries = unit?.events.filter((e) => e.type === 'call' && e.purpose === 'summary') ?? [];
    expect(summaries.map((e) => e.step)).toEqual([5, 10]);
    expect(unit?.events.filter((e) => e.type === 'action').map((e) => e.type === 'action' && [e.step, e.action])).toEqual([
      [5, 'summary'],
      [10, 'summary'],
    ]);
  });
});
