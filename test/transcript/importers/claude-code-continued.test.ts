import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrateFiles } from '../../../src/calibration/load.js';
import { claudeCode } from '../../../src/transcript/importers/claude-code.js';
import { writeFiles } from '../../helpers/temp.js';
import { messagesOf } from './helpers.js';

/**
 * Claude Code 1.0.8x writes no `compact_boundary`: the summary (a user line with a null
 * `parentUuid`, "This session is being continued from a previous conversation…") is appended to
 * the old file and repeated as the first line of the next. A real 1.0.89 log, cut at its first
 * compaction into the two files that version writes, with the `isCompactSummary` mark taken off as
 * older versions leave it out.
 */
const REAL = 'fixtures/real/claude-code-compactions/swordintel-b260c379.jsonl';
const lines = readFileSync(REAL, 'utf8').trimEnd().split('\n');
const unmarked = lines.map((line) => line.replace(',"isCompactSummary":true', ''));
const cut = unmarked.findIndex((line) => line.includes('This session is being continued from a previous conversation'));
const dir = writeFiles({
  'a-old.jsonl': `${unmarked.slice(0, cut + 1).join('\n')}\n`,
  'b-next.jsonl': `${unmarked.slice(cut).join('\n')}\n`,
});
const importFile = (name: string) => claudeCode.import(join(dir, name), {});

describe('Claude Code 1.0.8x: a compaction without a boundary, its summary repeated in the next file', () => {
  it('finds the summaries by their words where the mark is missing', () => {
    expect(unmarked.join('\n')).not.toContain('isCompactSummary');
    expect(cut).toBe(114);
  });

  it('imports the summary that ends the old file as a compaction that replaces the history before it', async () => {
    const old = await importFile('a-old.jsonl');
    const last = old.events.at(-1);
    expect(last?.type).toBe('compaction');
    expect(last?.type === 'compaction' ? last.summary?.slice(0, 62) : '').toBe('This session is being continued from a previous conversation t');
    expect(old.events.filter((e) => e.type === 'compaction')).toHaveLength(1);
  });

  it('reads the copy that opens the next file as where its context starts, not as a second compaction', async () => {
    const next = await importFile('b-next.jsonl');
    const [first] = messagesOf(next);
    expect(first).toMatchObject({ role: 'user' });
    expect(first?.text.startsWith('This session is being continued from a previous conversation')).toBe(true);
    // The compaction later in the file (line 308 of the source) is still one.
    expect(next.events.filter((e) => e.type === 'compaction')).toHaveLength(1);
  });

  it('is the same session as the whole log: the same steps, compactions and calibration points', async () => {
    const whole = await claudeCode.import(REAL, {});
    const parts = [await importFile('a-old.jsonl'), await importFile('b-next.jsonl')];
    const steps = (t: typeof whole) => messagesOf(t).filter((m) => m.role === 'assistant').length;
    expect(steps(parts[0] as typeof whole) + steps(parts[1] as typeof whole)).toBe(steps(whole));
    const calibrated = await calibrateFiles([join(dir, 'a-old.jsonl'), join(dir, 'b-next.jsonl')]);
    expect(calibrated.compactions.map((c) => c.historyMessages)).toEqual((await calibrateFiles([REAL])).compactions.map((c) => c.historyMessages));
  });
});
