import { describe, expect, it } from 'vitest';
import { calibrateTranscript, findCompactions } from '../../src/calibration/calibrate.js';
import { calibrateFiles } from '../../src/calibration/load.js';
import { renderCalibration } from '../../src/calibration/render.js';
import { InputError } from '../../src/errors.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import type { Transcript } from '../../src/transcript/types.js';

const REAL = 'fixtures/real/claude-code-long/vsla-0a725fb5.jsonl';
const tokenizer = createTokenizer('o200k_base');
const count = (text: string): number => tokenizer.count(text);

describe('calibration on the real Claude Code compaction', async () => {
  const report = await calibrateFiles([REAL]);
  const [compaction] = report.compactions;

  it('finds the one compaction and the 317 messages it replaced', () => {
    expect(report.compactions).toHaveLength(1);
    expect(compaction?.historyMessages).toBe(317);
    expect(compaction?.summaryTokens).toBe(2151);
    expect(compaction?.simulatedTokens).toBeLessThanOrEqual(2151);
  });

  it('keeps paths, numbers and identifiers verbatim within a factor of 1.5 of the real summary', () => {
    for (const kind of compaction?.kinds ?? []) {
      expect(kind.real, kind.kind).not.toBeNull();
      expect(kind.ratio, kind.kind).not.toBeNull();
      expect(kind.ratio ?? 0, kind.kind).toBeGreaterThanOrEqual(1 / 1.5);
      expect(kind.ratio ?? 0, kind.kind).toBeLessThanOrEqual(1.5);
    }
    // The real summary's own rates, by the one definition of the kinds.
    expect(compaction?.kinds.map((k) => [k.kind, k.source, Math.round((k.real ?? 0) * 1000) / 10])).toEqual([
      ['paths', 290, 2.1],
      ['numbers', 205, 1.5],
      ['identifiers', 69, 10.1],
    ]);
  });

  it('prints a row per kind', () => {
    const text = renderCalibration(report);
    expect(text).toContain('paths              290      2.1%        2.1%     1.00');
    expect(text).toContain('identifiers         69     10.1%       10.1%     1.00');
  });

  it('says which logs hold no compaction, and fails when none does', async () => {
    const both = await calibrateFiles([REAL, 'fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl']);
    expect(both.withoutCompaction).toEqual(['fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl']);
    await expect(calibrateFiles(['fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl'])).rejects.toThrow(InputError);
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
    // A summary of a few tokens names no path: about one per 360 tokens (summary-specifics.ts).
    expect(first?.kinds.find((k) => k.kind === 'paths')).toEqual({ kind: 'paths', source: 2, real: 0.5, simulated: 0, ratio: 0 });
  });
});
