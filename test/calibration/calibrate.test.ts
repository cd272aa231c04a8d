import { describe, expect, it } from 'vitest';
import { calibrateTranscript, findCompactions } from '../../src/calibration/calibrate.js';
import { calibrateFiles } from '../../src/calibration/load.js';
import { renderCalibration } from '../../src/calibration/render.js';
import { InputError } from '../../src/errors.js';
import { fitSummarizer } from '../../src/calibration/fit.js';
import { FITTED, predictedLength, roundFit } from '../../src/simulator/summary-fit.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import type { ContextMessage, Transcript } from '../../src/transcript/types.js';

const REAL = 'fixtures/real/claude-code-long/vsla-0a725fb5.jsonl';
const NONE = 'fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl';
/** The ten real compactions of fixtures/real, from three authors (vsla, mclaude, swordintel). */
const ALL = [
  REAL,
  ...['mclaude-97b0ffde', 'mclaude-c7d2069e', 'swordintel-0c45b0a6', 'swordintel-b260c379', 'swordintel-e95a823a'].map(
    (name) => `fixtures/real/claude-code-compactions/${name}.jsonl`,
  ),
];
const tokenizer = createTokenizer('o200k_base');
const count = (text: string): number => tokenizer.count(text);

describe('calibration on the ten real compactions', async () => {
  const report = await calibrateFiles(ALL, { lenient: true });

  it('finds each compaction once, with the history it replaced', () => {
    expect(report.compactions).toHaveLength(10);
    expect(report.repeated).toBe(0);
    const vsla = report.compactions[0];
    expect([vsla?.historyMessages, vsla?.summaryTokens]).toEqual([317, 2151]);
    // The real summary's own rates, by the one definition of the kinds.
    expect(vsla?.kinds.map((k) => [k.kind, k.source, Math.round((k.real ?? 0) * 1000) / 10])).toEqual([
      ['paths', 290, 2.1],
      ['numbers', 205, 1.5],
      ['identifiers', 67, 10.4],
    ]);
  });

  it('ships the fit on them: a fresh fit gives the constants of summary-fit.ts', () => {
    expect(report.fitted).toEqual(roundFit(FITTED));
  });

  it('keeps each kind within 1.5× of the real summaries pooled, at ≥ 0.8× their size, in sample and with each author held out', () => {
    const held = report.heldOut;
    expect(held?.authors).toEqual(['vsla', 'mclaude', 'swordintel']);
    for (const pooled of [report.pooled, held?.pooled]) {
      for (const kind of pooled?.kinds ?? []) {
        expect(kind.ratio ?? 0, kind.kind).toBeGreaterThanOrEqual(1 / 1.5);
        expect(kind.ratio ?? 0, kind.kind).toBeLessThanOrEqual(1.5);
      }
      expect(pooled?.size).toBeGreaterThanOrEqual(0.8);
    }
    // In sample, the size is within 0.85–1.15× (reached 1.06 on all eleven; 0.94 before each author weighed the same).
    expect(report.pooled.size).toBeGreaterThanOrEqual(0.85);
    expect(report.pooled.size).toBeLessThanOrEqual(1.15);
    // Pooled, not per compaction: one summary keeps a handful of each kind, so single ratios spread wide.
    const identifiers = held?.pooled.kinds.find((k) => k.kind === 'identifiers')?.spread;
    expect(identifiers?.of).toBe(10);
    expect((identifiers?.max ?? 0) / (identifiers?.min ?? 1)).toBeGreaterThan(2);
  });

  it('prints the pooled line, the held-out line and their spread', () => {
    const text = renderCalibration(report);
    expect(text).toContain('pooled over 10 compactions (the shipped fit)');
    expect(text).toContain('held out by author (each of vsla, mclaude, swordintel replayed under a fit on the others)');
    expect(text).toMatch(/^paths +2,316 +2\.9% +\d+\.\d% +\d\.\d\d +\d\.\d\d \/ \d\.\d\d \/ \d\.\d\d \(10\)$/m);
    expect(text).toMatch(/^size +\d\.\d\d +/m);
  });
});

describe('calibrateFiles', () => {
  it('counts a summary met again in another file once', async () => {
    const twice = await calibrateFiles([REAL, REAL]);
    expect(twice.compactions).toHaveLength(1);
    expect(twice.repeated).toBe(1);
    expect(twice.heldOut).toBeUndefined();
    expect(renderCalibration(twice)).toContain('1 repeated summary skipped');
  });

  it('says which logs hold no compaction, and fails when none does', async () => {
    const both = await calibrateFiles([REAL, NONE]);
    expect(both.withoutCompaction).toEqual([NONE]);
    await expect(calibrateFiles([NONE])).rejects.toThrow(InputError);
  });
});

describe('findCompactions', () => {
  const transcript: Transcript = {
    header: { type: 'session', id: 't', dialect: 'openai' },
    file: 'inline',
    skipped: [],
    unknown: {},
    events: [
      { type: 'message', id: 'u1', role: 'user', text: 'Fix src/app/main.ts please.' },
      { type: 'message', id: 'a1', role: 'assistant', text: 'Reading src/app/main.ts and src/app/util.ts.' },
      { type: 'compaction', id: 'c1', summary: 'Fixing src/app/main.ts.' },
      { type: 'message', id: 'u2', role: 'user', text: 'Now src/app/other.ts.' },
      { type: 'compaction', id: 'c2' },
      { type: 'compaction', id: 'c3', summary: 'Moved on to other.ts.' },
    ],
  };

  it('pairs each summarized compaction with the history since the previous one, that summary first', () => {
    const found = findCompactions(transcript);
    expect(found.map((c) => [c.id, c.history.map((m) => m.id)])).toEqual([
      ['c1', ['u1', 'a1']],
      ['c3', ['c1:summary', 'u2']],
    ]);
    const [first] = calibrateTranscript(transcript, count);
    // The path the user named once and the agent again is likelier kept than one named once by the agent.
    expect(first?.kinds.find((k) => k.kind === 'paths')).toMatchObject({ kind: 'paths', source: 2, realKept: 1, real: 0.5 });
  });
});

describe('fitSummarizer: the length', () => {
  const history: ContextMessage[] = [
    { type: 'message', id: 'u1', role: 'user', text: 'Fix the parser in src/parse/state.ts. '.repeat(400) },
    { type: 'message', id: 'a1', role: 'assistant', text: 'Reading src/parse/state.ts now. '.repeat(400) },
  ];
  const sample = (summaryTokens: number, author: string) => ({ history, summary: 'Fixed src/parse/state.ts.', summaryTokens, author });

  it('weighs each author the same: eight 1,000-token summaries of one author and one 3,000-token of another predict 2,000', () => {
    const fit = fitSummarizer([...Array.from({ length: 8 }, () => sample(1_000, 'many')), sample(3_000, 'one')]);
    const chars = history.reduce((n, m) => n + m.text.length, 0);
    expect(Math.round(predictedLength(fit, chars))).toBe(2_000);
    // Pooled over samples, the prolific author set it: 1,222.
    const pooled = fitSummarizer([...Array.from({ length: 8 }, () => sample(1_000, '')), sample(3_000, '')]);
    expect(Math.round(predictedLength(pooled, chars))).toBe(1_222);
  });
});
