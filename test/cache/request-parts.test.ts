import { describe, expect, it } from 'vitest';
import { cacheRequest } from '../../src/cache/request-parts.js';
import { applyCache, createCacheState } from '../../src/cache/model.js';
import { cacheRulesForModel } from '../../src/cache/families.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import type { ContextMessage } from '../../src/transcript/types.js';

const tokenizer = createTokenizer('o200k_base');
const message = (id: string, role: ContextMessage['role'], text: string): ContextMessage => ({ type: 'message', id, role, text });
const history = [
  message('s', 'system', 'You are a coding agent.'),
  message('u1', 'user', 'Fix the failing test in src/parse.ts'),
  message('a1', 'assistant', 'Reading src/parse.ts now.'),
];

describe('cacheRequest', () => {
  it('leads with the hidden prefix, trails the re-sent reasoning, and adds up to the prompt', () => {
    const counted = history.reduce((n, m) => n + tokenizer.countMessage(m, 'openai'), 0);
    const request = cacheRequest(history, counted + 15_000 + 40, tokenizer, 'openai', { prefix: 15_000, reasoning: 40 });
    expect(request.parts[0]).toEqual({ key: 'hidden-prefix:15000', tokens: 15_000 });
    expect(request.parts.at(-1)?.tokens).toBe(40);
    expect(request.parts.reduce((n, p) => n + p.tokens, 0)).toBe(counted + 15_040);
    // After the system message, after the last message, and at the end.
    expect(request.breakpoints).toEqual([1, 3, 4]);
  });

  it('replays an append-only Claude session from cache, and a window that drops the oldest turn from the system prompt only', () => {
    const state = createCacheState(cacheRulesForModel('claude-sonnet-4'));
    const send = (messages: ContextMessage[], atMs: number) => {
      const counted = messages.reduce((n, m) => n + tokenizer.countMessage(m, 'openai'), 0);
      const request = cacheRequest(messages, counted + 15_000, tokenizer, 'openai', { prefix: 15_000, reasoning: 0 });
      return { counted, usage: applyCache(state, request.parts, atMs, request.breakpoints) };
    };
    const first = send(history, 0);
    expect(first.usage).toEqual({ cached: 0, write: first.counted + 15_000, uncached: 0 });
    const grown = [...history, message('u2', 'user', 'Now run the tests.')];
    const second = send(grown, 30_000);
    expect(second.usage.cached).toBe(first.counted + 15_000);
    const windowed = [history[0] as ContextMessage, ...grown.slice(2)];
    const third = send(windowed, 60_000);
    expect(third.usage.cached).toBe(15_000 + tokenizer.countMessage(history[0] as ContextMessage, 'openai'));
  });
});

describe('cacheRequest re-sent reasoning', () => {
  it('keys a message with the reasoning re-sent with it apart from the same message without it', () => {
    const reply = { ...message('a1', 'assistant', 'Reading src/parse.ts now.'), reasoningTokens: 500 };
    const messages = [history[0] as ContextMessage, history[1] as ContextMessage, reply];
    const counted = messages.reduce((n, m) => n + tokenizer.countMessage(m, 'openai'), 0);
    const within = cacheRequest(messages, counted + 15_000 + 500, tokenizer, 'openai', { prefix: 15_000, reasoning: 500 });
    const after = cacheRequest(messages, counted + 15_000, tokenizer, 'openai', { prefix: 15_000, reasoning: 0 });
    expect(within.parts.slice(0, 3)).toEqual(after.parts.slice(0, 3));
    // The cache chain hashes keys alone: a key that stayed the same would read the old prefix back.
    expect(within.parts[3]?.key).not.toBe(after.parts[3]?.key);
    expect((within.parts[3]?.tokens ?? 0) - (after.parts[3]?.tokens ?? 0)).toBe(500);
  });
});

describe('cacheRequest servedBy', () => {
  it('keeps one cache per model: the first request after a switch reads nothing, and the switch back reads the old entries', () => {
    const state = createCacheState(cacheRulesForModel('claude-sonnet-4'));
    const counted = history.reduce((n, m) => n + tokenizer.countMessage(m, 'openai'), 0);
    const send = (model: string, atMs: number) => {
      const request = cacheRequest(history, counted + 15_000, tokenizer, 'openai', { prefix: 15_000, reasoning: 0 }, model);
      return applyCache(state, request.parts, atMs, request.breakpoints);
    };
    expect(send('claude-opus-4-20250514', 0).cached).toBe(0);
    expect(send('claude-opus-4-20250514', 10_000).cached).toBe(counted + 15_000);
    expect(send('claude-sonnet-4-20250514', 20_000)).toEqual({ cached: 0, write: counted + 15_000, uncached: 0 });
    expect(send('claude-opus-4-20250514', 30_000).cached).toBe(counted + 15_000);
  });

  it('keeps what rides with a message (unlogged, restored) with that message, so a new one does not move the cached prefix', () => {
    const state = createCacheState(cacheRulesForModel('claude-sonnet-4'));
    const send = (messages: ContextMessage[], withMessages: Record<string, number>, atMs: number) => {
      const counted = messages.reduce((n, m) => n + tokenizer.countMessage(m, 'openai'), 0);
      const carried = Object.values(withMessages).reduce((n, t) => n + t, 0);
      const request = cacheRequest(messages, counted + 15_000 + carried, tokenizer, 'openai', { prefix: 15_000 + carried, reasoning: 0, withMessages });
      return { request, usage: applyCache(state, request.parts, atMs, request.breakpoints) };
    };
    const first = send(history, {}, 0);
    // A file-change reminder the agent attached to a new user message (6,000 tokens) and did not log.
    const grown = [...history, message('u2', 'user', 'Now run the tests.')];
    const second = send(grown, { u2: 6_000 }, 30_000);
    expect(second.request.parts[0]).toEqual({ key: 'hidden-prefix:15000', tokens: 15_000 });
    expect(second.request.parts.at(-1)).toEqual({ key: expect.any(String), tokens: tokenizer.countMessage(grown[3] as ContextMessage, 'openai') + 6_000 });
    // Everything the first request wrote is read back: the leading prefix did not change.
    expect(second.usage.cached).toBe(first.usage.write);
    const third = send([...grown, message('a2', 'assistant', 'Running them.')], { u2: 6_000 }, 60_000);
    expect(third.usage.cached).toBe(first.usage.write + second.usage.write);
  });

  it('keys messages apart that differ only where two fields meet, in a lone surrogate, or in a missing field', () => {
    const keyOf = (m: ContextMessage): string => (cacheRequest([m], tokenizer.countMessage(m, 'openai'), tokenizer, 'openai').parts[0] as { key: string }).key;
    const variants: ContextMessage[] = [
      { type: 'message', id: 'a', role: 'assistant', text: 'ab', thinking: 'c' },
      { type: 'message', id: 'a', role: 'assistant', text: 'a', thinking: 'bc' },
      { type: 'message', id: 'a', role: 'assistant', text: 'abc' },
      { type: 'message', id: 'a', role: 'assistant', text: 'abc', thinking: '' },
      { type: 'message', id: 'a', role: 'assistant', text: 'x\ud800' },
      { type: 'message', id: 'a', role: 'assistant', text: 'x\udc00' },
      { type: 'message', id: 'a', role: 'assistant', text: 'abc', toolCalls: [{ id: 'c1', name: 'read', args: {} }] },
    ];
    expect(new Set(variants.map(keyOf)).size).toBe(variants.length);
    // The same content in another object is the same key.
    expect(keyOf({ ...(variants[0] as ContextMessage) })).toBe(keyOf(variants[0] as ContextMessage));
  });
});
