import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { writeFiles } from '../../helpers/temp.js';
import { resultsOnOneAndTwoThreads } from '../../helpers/thread-results.js';

const root = resolve(import.meta.dirname, '../../..');

/**
 * Worker threads load a strategy module by path and start policy processes themselves (a planned
 * unit carries only the spec): the CLI runs from the sources transpiled into a temporary package
 * (test/helpers/transpile.ts), with one thread and with two.
 */
describe('strategies of your own on real worker threads', () => {
  it('give the same result.json with 1 and 2 threads; a failing policy process ends its unit alone', { timeout: 300_000 }, async () => {
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
    // The failing policy fails the run (exit 1) on one thread and on two alike.
    const outputs = await resultsOnOneAndTwoThreads(dir, 1);
    expect(outputs.two, '--workers 2 (threads of the transpiled CLI) against --workers 1 (in this process)').toBe(outputs.one);
    const units = (JSON.parse(outputs.two) as { units: { strategy: string; summary: Record<string, unknown> }[] }).units;
    const row = (label: string) => units.find((u) => u.strategy === label)?.summary;
    const { strategy: _a, ...builtIn } = row('observation-masking') ?? {};
    const { strategy: _b, ...js } = row('js-masking') ?? {};
    const { strategy: _c, ...python } = row('python-masking') ?? {};
    expect(js).toEqual(builtIn);
    expect(python).toEqual(builtIn);
    expect(row('exits')).toMatchObject({ steps_completed: 5, crashed: true, crash_kind: 'strategy', crash_step: 5 });
  });
});
