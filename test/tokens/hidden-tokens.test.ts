import { describe, expect, it } from 'vitest';
import { carriedReasoningTokens, hiddenTokensOf } from '../../src/tokens/hidden-tokens.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import type { ContextMessage } from '../../src/transcript/types.js';

const tokenizer = createTokenizer('o200k_base');
const m = (id: string, role: ContextMessage['role'], extra: Partial<ContextMessage> = {}): ContextMessage => ({
  type: 'message',
  id,
  role,
  text: id,
  ...extra,
});

describe('carriedReasoningTokens', () => {
  const earlier = m('a0', 'assistant', { reasoningTokens: 500 });
  const context = [
    m('u1', 'user'),
    earlier,
    m('u2', 'user'),
    m('a1', 'assistant', { reasoningTokens: 640 }),
    m('t1', 'tool'),
    m('a2', 'assistant', { reasoningTokens: 192 }),
    m('t2', 'tool'),
  ];
  it('counts the reasoning of the current turn only (after the last user message)', () => {
    expect(carriedReasoningTokens(context, tokenizer, 'openai', 'openai')).toBe(640 + 192);
  });
  it('is 0 once a new user message starts a turn', () => {
    expect(carriedReasoningTokens([...context, m('u3', 'user')], tokenizer, 'openai', 'openai')).toBe(0);
  });
  it('counts Anthropic thinking text of the current turn, and leaves Gemini thought parts to the tokenizer', () => {
    const thinking = 'I should read the config first, then run the tests.';
    const claude = [m('u1', 'user'), m('a1', 'assistant', { thinking }), m('t1', 'tool')];
    expect(carriedReasoningTokens(claude, tokenizer, 'openai', 'anthropic')).toBe(tokenizer.count(thinking));
    expect(carriedReasoningTokens(claude, tokenizer, 'gemini', 'gemini')).toBe(0);
  });
});

describe('hiddenTokensOf', () => {
  it('adds what a recorded compaction re-attached while its summary is in the context', () => {
    const hidden = { tokens: 14_000, source: 'auto' as const, restored: { k1: 13_000 } };
    const summary = m('k1', 'user', { synthetic: 'recorded-compaction' });
    expect(hiddenTokensOf([summary, m('a1', 'assistant')], hidden, tokenizer, 'openai', 'anthropic')).toEqual({
      prefix: 27_000,
      reasoning: 0,
      withMessages: { k1: 13_000 },
    });
    expect(hiddenTokensOf([m('u1', 'user')], hidden, tokenizer, 'openai', 'anthropic')).toEqual({ prefix: 14_000, reasoning: 0 });
  });
  it('adds what the log left out of a message while that message is in the context', () => {
    const hidden = { tokens: 14_000, source: 'auto' as const, unlogged: { t1: 6_465 } };
    expect(hiddenTokensOf([m('u1', 'user'), m('a1', 'assistant'), m('t1', 'tool')], hidden, tokenizer, 'openai', 'anthropic')).toEqual({
      prefix: 20_465,
      reasoning: 0,
      withMessages: { t1: 6_465 },
    });
    expect(hiddenTokensOf([m('u1', 'user'), m('a1', 'assistant')], hidden, tokenizer, 'openai', 'anthropic')).toEqual({ prefix: 14_000, reasoning: 0 });
  });
});
