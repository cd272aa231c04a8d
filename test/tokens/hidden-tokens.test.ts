import { describe, expect, it } from 'vitest';
import { carriedReasoningTokens, createHiddenCount, eventOrder, hiddenTokensOf } from '../../src/tokens/hidden-tokens.js';
import { diffContexts } from '../../src/transcript/context-diff.js';
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

describe('hiddenTokensOf after a rebuild of the context from the log', () => {
  const reminder = '\n\n<system-reminder>\nYour todo list has changed: [{"content":"Add hardware detection"}]\n</system-reminder>';
  const todo = m('t1', 'tool', { text: `Todos have been modified successfully.${reminder}`, unloggedChars: reminder.length });
  const events = [m('u1', 'user'), m('a1', 'assistant'), todo, m('t2', 'tool'), m('u2', 'user'), m('a2', 'assistant'), m('t3', 'tool')];
  const order = eventOrder(events);
  const hidden = { tokens: 14_000, source: 'auto' as const, unlogged: { t2: 15_000, t3: 300 }, rebuilt: { u2: 11_000 } };

  it('before it: the prefix, and every unlogged amount of the messages in the context', () => {
    expect(hiddenTokensOf(events.slice(0, 4), hidden, tokenizer, 'openai', 'anthropic', order).prefix).toBe(14_000 + 15_000);
  });
  it('from it on: the prefix measured there; earlier messages carry nothing and lose the text the importer rebuilt for them', () => {
    const after = hiddenTokensOf(events, hidden, tokenizer, 'openai', 'anthropic', order);
    expect(after.prefix).toBe(11_000 - tokenizer.count(reminder) + 300);
    expect(after.withMessages).toEqual({ t3: 300 });
  });
  it('the incremental count agrees with it step by step', () => {
    const count = createHiddenCount(hidden, tokenizer, 'openai', 'anthropic', order);
    const before = events.slice(0, 4);
    expect(count.update(diffContexts([], before)).prefix).toBe(29_000);
    expect(count.update(diffContexts(before, events)).prefix).toBe(11_000 - tokenizer.count(reminder) + 300);
  });
});
