import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { runSuite } from '../../src/run/run-suite.js';
import { renderReports } from '../../src/report/index.js';
import { tokenizerStats } from '../../src/tokens/tokenizer.js';
import { writeFiles } from '../helpers/temp.js';

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

type Reports = Record<string, string>;

/** Every report file but the HTML page (the same data) of a run. */
async function reportsOf(memo: boolean): Promise<Reports> {
  const result = await runSuite({ scenarios: [join(dir, 'real.yaml'), join(dir, 'synthetic.yaml')], memo });
  return Object.fromEntries(renderReports(result, ['json', 'csv', 'md']).map((file) => [file.file, file.contents]));
}

/** What `runs` give, and how many counts the memos answered in all while they ran. */
async function withHits<T>(runs: () => Promise<T>): Promise<{ reports: T; hits: number }> {
  const before = tokenizerStats().hits;
  const reports = await runs();
  return { reports, hits: tokenizerStats().hits - before };
}

/** Each run alone, one after the other, once for the file. */
let alone: Promise<{ off: { reports: Reports; hits: number }; on: { reports: Reports; hits: number } }> | undefined;
function runAlone(): NonNullable<typeof alone> {
  alone ??= (async () => {
    const off = await withHits(() => reportsOf(false));
    return { off, on: await withHits(() => reportsOf(true)) };
  })();
  return alone;
}

describe('memos off (--no-memo)', () => {
  it('write the same reports, byte for byte, on a real log and a synthetic session through summarizing and rewriting strategies', async () => {
    const { off, on } = await runAlone();
    // The switch is real: with memos on, counts come from them; off, every text is tokenized again.
    expect(on.hits).toBeGreaterThan(100);
    expect(off.hits).toBe(0);
    expect(Object.keys(on.reports).sort()).toEqual(['events.csv', 'needed.csv', 'probes.csv', 'result.json', 'steps.csv', 'summary.csv', 'summary.md']);
    for (const [file, contents] of Object.entries(on.reports)) expect(off.reports[file], file).toBe(contents);
    // Both sessions overflow `full`'s window, and the summarizers summarize.
    expect(on.reports['events.csv']).toContain('summar');
    // On the real log every strategy ran steps, and one fetched back what its strategy had cut.
    const rows = (on.reports['summary.csv'] ?? '').split('\n').filter((row) => row.startsWith('real,'));
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(Number(row.split(',')[3]), row).toBeGreaterThanOrEqual(10);
    const fetched = (on.reports['steps.csv'] ?? '').split('\n').filter((row) => row.startsWith('real,') && Number(row.split(',')[16]) > 0);
    expect(fetched.length).toBeGreaterThan(0);
  });

  it('keep to each run its own switch when a memo run and a --no-memo run go on at once in one thread', async () => {
    const { on } = await runAlone();
    for (const order of [
      [true, false],
      [false, true],
    ]) {
      const both = await withHits(() => Promise.all(order.map((memo) => reportsOf(memo))));
      // The memo run's counts came from its memos as when alone, and the other's from none.
      expect(both.hits, String(order)).toBe(on.hits);
      for (const reports of both.reports) expect(reports).toEqual(on.reports);
    }
  });
});
