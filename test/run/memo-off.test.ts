import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { runSuite } from '../../src/run/run-suite.js';
import { renderReports } from '../../src/report/index.js';
import { tokenizerStats } from '../../src/tokens/tokenizer.js';
import { writeFiles } from '../helpers/temp.js';
import { closeTestMemos, openTestMemos } from '../helpers/test-memos.js';

const realLog = resolve('fixtures/real/claude-code/coverage-test-fix.jsonl');
// Summarizing strategies (codex-rebuild, tri-modal), rewriting ones (tiered truncation,
// observation masking) and `full`, in windows small enough that every one acts (the real log's
// above its 18k hidden prefix, or every strategy overflows at its first step). Without memos every
// step's diff shares nothing (transcript/context-diff.ts): this is also the oracle of each consumer
// of the step diff against computing the whole context from scratch.
const strategies = 'full, observation-masking, tiered-truncation, codex-rebuild, tri-modal';
const dir = writeFiles({
  'real.yaml': [
    `name: real`,
    `transcript: ${JSON.stringify(realLog)}`,
    'probes: generate',
    'provider: openai',
    'window: 22000',
    `strategies: [${strategies}]`,
    '',
  ].join('\n'),
  'synthetic.yaml': [
    'name: synthetic',
    'transcript:',
    '  generate: { steps: 10, seed: 3, toolOutputTokens: 250, facts: 2 }',
    'provider: gemini',
    'model: gemini-2.5-flash',
    'window: 4000',
    `strategies: [${strategies}]`,
    '',
  ].join('\n'),
});

/** Every report file but the HTML page (the same data) of a run, and how many counts its memos answered. */
async function reportsOf(memo: boolean): Promise<{ files: Record<string, string>; hits: number }> {
  const before = tokenizerStats().hits;
  const result = await runSuite({ scenarios: [join(dir, 'real.yaml'), join(dir, 'synthetic.yaml')], memo });
  const files = Object.fromEntries(renderReports(result, ['json', 'csv', 'md']).map((file) => [file.file, file.contents]));
  return { files, hits: tokenizerStats().hits - before };
}

describe('memos off (--no-memo)', () => {
  // The run opens its own memos, on or off: out of the ones test/setup.ts opens for this file.
  beforeAll(closeTestMemos);
  afterAll(openTestMemos);

  it('write the same reports, byte for byte, on a real log and a synthetic session through summarizing and rewriting strategies', async () => {
    const off = await reportsOf(false);
    const on = await reportsOf(true);
    // The switch is real: with memos on, counts come from them; off, every text is tokenized again.
    expect(on.hits).toBeGreaterThan(100);
    expect(off.hits).toBe(0);
    expect(Object.keys(on.files).sort()).toEqual(['events.csv', 'needed.csv', 'probes.csv', 'result.json', 'steps.csv', 'summary.csv', 'summary.md']);
    for (const [file, contents] of Object.entries(on.files)) expect(off.files[file], file).toBe(contents);
    // Both sessions overflow `full`'s window, and the summarizers summarize.
    expect(on.files['events.csv']).toContain('summar');
    // On the real log every strategy ran steps, and one fetched back what its strategy had cut.
    const rows = (on.files['summary.csv'] ?? '').split('\n').filter((row) => row.startsWith('real,'));
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(Number(row.split(',')[3]), row).toBeGreaterThanOrEqual(10);
    const fetched = (on.files['steps.csv'] ?? '').split('\n').filter((row) => row.startsWith('real,') && Number(row.split(',')[16]) > 0);
    expect(fetched.length).toBeGreaterThan(0);
  });
});
