import { describe, expect, it } from 'vitest';
import { fitLogFiles, generateLikeSessions } from '../../src/like/index.js';
import { twoLevelsOf } from '../../src/like/draw.js';
import { countTokens } from '../../src/tokens/tokenizer.js';
import type { Transcript } from '../../src/transcript/types.js';
import type { LogLevels } from '../../src/like/fit-types.js';

/** A Claude Code log of one long request (112 steps, then 7) and one of a request every eight steps, with 110k tokens sent unlogged. */
const ONE_REQUEST = 'fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl';
const CHATTY = 'fixtures/real/claude-code-compactions/swordintel-0c45b0a6.jsonl';
const MINI = 'fixtures/real/mini-swe-agent/django__django-11163.traj.json';

const messagesOf = (t: Transcript) => t.events.flatMap((e) => (e.type === 'message' ? [e] : []));
const textTokens = (t: Transcript): number => messagesOf(t).reduce((sum, m) => sum + countTokens('o200k_base', m.text), 0);

/** The quartiles of a list (nearest rank). */
function quartiles(values: readonly number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.round(q * (sorted.length - 1))] as number;
  return [at(0.25), at(0.75)];
}

describe('sizes that logs differ in, as two levels', () => {
  it('keep each log mean apart from the spread within logs', () => {
    const levels = twoLevelsOf([[2, 4, 6], [], [0, 0], [30, 10]]);
    expect(levels.perLog[0]).toBe(0);
    expect(levels.perLog.at(-1)).toBe(20);
    // Relative to each log's own mean (4, 20); the log of mean 0 has none.
    expect(levels.relative[0]).toBe(0.5);
    expect(levels.relative.at(-1)).toBe(1.5);
  });

  it('give each session a pace of requests of its own, as each log has', async () => {
    const fit = await fitLogFiles([ONE_REQUEST, CHATTY]);
    expect(fit.task.steps.perLog[0]).toBeLessThan(10);
    expect(fit.task.steps.perLog.at(-1)).toBeGreaterThan(50);
    const sessions = generateLikeSessions(fit, { count: 30, seed: 1, steps: 120 });
    const pace = sessions.map((s) => 120 / messagesOf(s).filter((m) => m.role === 'user').length);
    // Drawn from the pooled requests, nearly every session had a request every 8–10 steps.
    const [low, high] = quartiles(pace);
    expect(high / low).toBeGreaterThan(1.6);
    expect(pace.filter((p) => p >= 30).length).toBeGreaterThan(9);
  });

  it('write out what the agent sent unlogged, as much as the replay charges the log', async () => {
    const fit = await fitLogFiles([CHATTY]);
    expect(fit.toolOutput.unloggedTokens.perLog[0]).toBeGreaterThan(100);
    const real = await fitLogFiles([MINI]);
    expect(real.toolOutput.unloggedTokens.perLog.every((v) => v === 0)).toBe(true);
    // swordintel-0c45b0a6: 180k tokens of logged text and 110k unlogged (replay/unlogged.ts) over 395 steps.
    const sessions = generateLikeSessions(fit, { count: 4, seed: 1, steps: 395 });
    const mean = sessions.reduce((sum, s) => sum + textTokens(s), 0) / sessions.length;
    expect(mean).toBeGreaterThan(0.8 * 290_000);
    expect(mean).toBeLessThan(1.25 * 290_000);
    // Not in the tool results (168k logged), which strategies that cut tool output cut: the replay keeps the charge.
    const toolTokens = (t: Transcript): number => messagesOf(t).reduce((sum, m) => sum + (m.role === 'tool' ? countTokens('o200k_base', m.text) : 0), 0);
    expect(sessions.reduce((sum, s) => sum + toolTokens(s), 0) / sessions.length).toBeLessThan(1.4 * 168_000);
  });
});

/** Logs whose levels lie far apart and go together: 127 steps of 1,093-token tool results after a 43k hidden prefix, beside 62 of 97 after 18k. */
const HEAVY = 'fixtures/real/claude-code-compactions/swordintel-b260c379.jsonl';
const LIGHT = 'fixtures/real/claude-code-compactions/mclaude-97b0ffde.jsonl';

const meanOf = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);

describe('the levels of one log, taken together', () => {
  it('are kept log by log in the fit', async () => {
    const fit = await fitLogFiles([HEAVY, LIGHT]);
    expect(fit.perLog).toHaveLength(2);
    const [heavy, light] = fit.perLog as [LogLevels, LogLevels];
    expect(heavy.steps).toBe(127);
    expect(light.steps).toBe(62);
    expect(heavy.toolTokens).toBeGreaterThan(5 * light.toolTokens);
    expect(heavy.hiddenTokens).toBeGreaterThan(2 * (light.hiddenTokens ?? 0));
    expect(heavy.unloggedTokens).toBeGreaterThan(light.unloggedTokens);
  });

  it('give a session the length, hidden prefix and sizes of the one log it stands for', async () => {
    const fit = await fitLogFiles([HEAVY, LIGHT]);
    const sessions = generateLikeSessions(fit, { count: 20, seed: 1 });
    for (const session of sessions) {
      const messages = messagesOf(session);
      const steps = messages.filter((m) => m.role === 'assistant').length;
      const tools = meanOf(messages.filter((m) => m.role === 'tool').map((m) => countTokens('o200k_base', m.text)));
      const hidden = messages.find((m) => m.role === 'assistant')?.usage?.input ?? 0;
      // Drawn apart, a 127-step session got the light log's small results or hidden prefix about half the time.
      if (steps === 127) {
        expect(tools).toBeGreaterThan(400);
        expect(hidden).toBeGreaterThan(40_000);
      } else {
        expect(steps).toBe(62);
        expect(tools).toBeLessThan(250);
        expect(hidden).toBeLessThan(25_000);
      }
    }
  });

  it('stand for every fitted log once when a seed draws as many sessions as logs', async () => {
    const fit = await fitLogFiles([HEAVY, LIGHT, ONE_REQUEST]);
    for (const seed of [1, 2, 3]) {
      const lengths = generateLikeSessions(fit, { count: 3, seed }).map((s) => messagesOf(s).filter((m) => m.role === 'assistant').length);
      expect([...lengths].sort((a, b) => a - b)).toEqual([62, 119, 127]);
    }
  });
});

describe('how a log grows over its length', () => {
  it('comes back in the unlogged content of the sessions that stand for it: little at first, much later', async () => {
    // swordintel-0c45b0a6 sends a quarter of its mean unlogged in its first fifth, twice it in its last.
    const fit = await fitLogFiles([CHATTY]);
    const growth = fit.perLog[0]?.unloggedGrowth ?? [];
    expect(growth).toHaveLength(5);
    expect(growth[0]).toBeLessThan(0.4);
    expect(growth.at(-1)).toBeGreaterThan(1.5);
    // A log that sends nothing unlogged weighs every fifth alike.
    expect((await fitLogFiles([MINI])).perLog[0]?.unloggedGrowth).toEqual([1, 1, 1, 1, 1]);
    for (const session of generateLikeSessions(fit, { count: 2, seed: 1 })) {
      // The unlogged content is written after the text of the agent's messages (session.ts, withUnlogged).
      const texts = messagesOf(session)
        .filter((m) => m.role === 'assistant')
        .map((m) => countTokens('o200k_base', m.text));
      const fifth = Math.ceil(texts.length / 5);
      // Drawn at the log's mean throughout, the first fifth's messages came to about as much as the last's.
      expect(meanOf(texts.slice(0, fifth)) / meanOf(texts.slice(-fifth))).toBeLessThan(0.4);
    }
  });
});
