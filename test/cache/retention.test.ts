import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MessageDraft } from '../../src/transcript/draft.js';
import type { Transcript } from '../../src/transcript/types.js';
import { cacheRulesForModel, describeCacheRules } from '../../src/cache/families.js';
import { EXTENDED_TTL_MS, extendedRetentionInLog, IN_MEMORY_TTL_MS, withRetention } from '../../src/cache/retention.js';
import { measureFidelity } from '../../src/fidelity/measure.js';
import { tokenizerForModel } from '../../src/tokens/tokenizer.js';
import { serializeTranscript } from '../../src/transcript/write.js';
import { writeFiles } from '../helpers/temp.js';

const T0 = Date.parse('2026-01-05T09:00:00Z');
const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();
const call = (id: string, minutes: number, input: number, cachedInput: number): MessageDraft => ({
  type: 'message',
  id,
  role: 'assistant',
  text: `answer ${id}`,
  at: at(minutes),
  usage: { input, cachedInput, output: 10 },
});

describe('extendedRetentionInLog', () => {
  it('finds a call that still read ≥ 90 % of a large prompt from the cache after more than 10 minutes idle (the longest such gap)', () => {
    const events = [call('a1', 0, 40_000, 0), call('a2', 27, 41_000, 40_500), call('a3', 111, 42_000, 41_800), call('a4', 112, 43_000, 100)];
    expect(extendedRetentionInLog(events)).toEqual({ source: 'log', idleMs: 84 * 60_000, share: 41_800 / 42_000 });
  });
  it('finds none where the call after a pause read only the prefix every session shares, or where no pause passed 10 minutes', () => {
    // moonmind-019a7ae6 step 85: 3,072 of 56,236 after 53 minutes.
    expect(extendedRetentionInLog([call('a1', 0, 55_000, 50_000), call('a2', 53, 56_236, 3_072)])).toBeUndefined();
    expect(extendedRetentionInLog([call('a1', 0, 55_000, 0), call('a2', 9, 56_000, 55_500)])).toBeUndefined();
    // A small prompt says little: 6,016 of 7,278 after 98 minutes (moonmind-019a7fa9) is under 90 % anyway.
    expect(extendedRetentionInLog([call('a1', 0, 3_000, 0), call('a2', 98, 3_100, 3_072)])).toBeUndefined();
  });
});

describe('withRetention', () => {
  it('keeps OpenAI prefixes 24 hours where the model has only extended retention (gpt-5.5 and later) or the log shows it', () => {
    expect(withRetention(cacheRulesForModel('gpt-5.5'), 'gpt-5.5').ttlMs).toBe(EXTENDED_TTL_MS);
    expect(withRetention(cacheRulesForModel('openai/gpt-5.10-codex'), 'openai/gpt-5.10-codex').ttlMs).toBe(EXTENDED_TTL_MS);
    expect(withRetention(cacheRulesForModel('gpt-5-codex'), 'gpt-5-codex').ttlMs).toBe(IN_MEMORY_TTL_MS);
    const shown = withRetention(cacheRulesForModel('gpt-5-codex'), 'gpt-5-codex', [call('a1', 0, 40_000, 0), call('a2', 660, 41_000, 40_600)]);
    expect(shown.ttlMs).toBe(EXTENDED_TTL_MS);
    expect(describeCacheRules(shown)).toContain('extended retention (24 h: the log read 99 % from cache after 660 min idle)');
  });
  it('leaves Anthropic and Gemini caches as they are', () => {
    const events = [call('a1', 0, 40_000, 0), call('a2', 60, 41_000, 40_600)];
    expect(withRetention(cacheRulesForModel('claude-sonnet-4'), 'claude-sonnet-4', events).ttlMs).toBe(IN_MEMORY_TTL_MS);
    expect(withRetention(cacheRulesForModel('gemini-2.5-pro'), 'gemini-2.5-pro', events).ttlMs).toBe(IN_MEMORY_TTL_MS);
  });
});

/** A Codex-like session: a 6k-token task, then calls 1 minute apart, one after `pause` minutes idle; each warm call read 95.5 % from cache (the held-out rollouts pooled 95.6 %). */
function pausedSession(pause: number): Transcript {
  const tokenizer = tokenizerForModel('gpt-5-codex');
  const task = Array.from({ length: 600 }, (_, i) => `line ${i}: keep the parser's state in src/parse/state${i % 17}.ts`).join('\n');
  const events: MessageDraft[] = [{ type: 'message', id: 'u1', role: 'user', text: task, at: at(0) }];
  let minute = 0;
  for (let i = 1; i <= 6; i++) {
    minute += i === 4 ? pause : 1;
    const input = tokenizer.countMessages(events, 'openai');
    events.push({
      ...call(`a${i}`, minute, input, i === 1 ? 0 : Math.floor(0.955 * input)),
      toolCalls: [{ id: `c${i}`, name: 'shell', args: { cmd: `cat f${i}` } }],
    });
    events.push({
      type: 'message',
      id: `t${i}`,
      role: 'tool',
      text: `contents of f${i}: ${'x '.repeat(40)}`,
      toolCallId: `c${i}`,
      toolName: 'shell',
      at: at(minute),
    });
  }
  return {
    header: { type: 'session', id: 'paused', source: { format: 'hand' }, dialect: 'openai', model: 'gpt-5-codex' },
    events,
    file: 's.ctx.jsonl',
    skipped: [],
    unknown: {},
  };
}

describe('fidelity of the cached share after a long pause', () => {
  it.each([27, 84, 660])('predicts the call after %i minutes idle as cached, as the log recorded (before: a cold call)', async (pause) => {
    const dir = writeFiles({ 's.ctx.jsonl': serializeTranscript(pausedSession(pause)) });
    const report = await measureFidelity([join(dir, 's.ctx.jsonl')]);
    const file = report.files[0];
    const afterPause = file?.compared.find((s) => s.messageId === 'a4');
    expect(afterPause?.upperBoundCached).toBeGreaterThan(0.95 * (afterPause?.computed ?? 0));
    expect(afterPause?.predictedCached).toBeGreaterThan(0.9 * (afterPause?.computed ?? 0));
    expect(Math.abs((file?.cache?.predictedShare ?? 0) - (file?.cache?.recordedShare ?? 1))).toBeLessThan(0.03);
    expect(file?.cache?.model).toContain('extended retention');
  });
});
