import { describe, expect, it } from 'vitest';
import { scoreSalience, summarizeMessages } from '../../../src/providers/simulated/summarizer.js';
import type { ContextMessage } from '../../../src/transcript/types.js';
import { createTokenizer } from '../../../src/tokens/tokenizer.js';

const tokenizer = createTokenizer('o200k_base');
const count = (text: string) => tokenizer.count(text);

function message(id: string, role: ContextMessage['role'], text: string, extra: Partial<ContextMessage> = {}): ContextMessage {
  return { type: 'message', id, role, text, ...extra };
}

const chatter = Array.from({ length: 30 }, (_, i) => `Okay, looking into this a little more, step ${'and then '.repeat(i % 3)}onwards.`);
const session: ContextMessage[] = [
  message('u1', 'user', 'Please make the payment webhook idempotent.'),
  message('a1', 'assistant', chatter.slice(0, 15).join('\n'), { toolCalls: [{ id: 'c1', name: 'shell', args: { command: 'git grep -n handleWebhook' } }] }),
  message('t1', 'tool', 'src/payments/webhook.ts:88: export async function handleWebhook(event) {'),
  message('a2', 'assistant', `${chatter.slice(15).join('\n')}\nWe decided to store processed event ids in Postgres because Redis is not durable here.`),
  message('t2', 'tool', 'Error: duplicate key value violates unique constraint "events_pkey"\nOkay, looking into this a little more, step onwards.'),
];

describe('the extractive summarizer', () => {
  it('scores paths, commands, errors, decisions, identifiers and numbers above chatter', () => {
    expect(scoreSalience('Okay, looking into this a little more.')).toBe(0);
    expect(scoreSalience('src/payments/webhook.ts:88')).toBeGreaterThan(0);
    expect(scoreSalience('$ git grep -n handleWebhook')).toBeGreaterThanOrEqual(3);
    expect(scoreSalience('Error: duplicate key')).toBe(3);
    expect(scoreSalience('We decided to use Postgres because it is durable')).toBe(3);
  });

  it('keeps the salient lines first and never exceeds the budget', () => {
    for (const budget of [0, 5, 20, 60, 120, 400]) {
      const summary = summarizeMessages(session, { budgetTokens: budget, count });
      expect(count(summary), `budget ${budget}`).toBeLessThanOrEqual(budget);
    }
    const summary = summarizeMessages(session, { budgetTokens: 80, count });
    expect(summary).toContain('src/payments/webhook.ts:88');
    expect(summary).toContain('$ git grep -n handleWebhook');
    expect(summary).toContain('We decided to store processed event ids in Postgres because Redis is not durable here.');
    expect(summary).toContain('Error: duplicate key value violates unique constraint "events_pkey"');
    expect(summary).not.toContain('Okay, looking into this');
  });

  it('de-duplicates repeated lines and writes them in their original order', () => {
    const summary = summarizeMessages(session, { budgetTokens: 10_000, count });
    const lines = summary.split('\n');
    expect(lines.filter((line) => line === 'Okay, looking into this a little more, step onwards.')).toHaveLength(1);
    expect(lines[0]).toBe('Please make the payment webhook idempotent.');
    expect(lines.indexOf('src/payments/webhook.ts:88: export async function handleWebhook(event) {')).toBeLessThan(
      lines.indexOf('We decided to store processed event ids in Postgres because Redis is not durable here.'),
    );
  });

  it('is deterministic', () => {
    const first = summarizeMessages(session, { budgetTokens: 50, count });
    const second = summarizeMessages(structuredClone(session), { budgetTokens: 50, count });
    expect(second).toBe(first);
    expect(first).not.toBe('');
  });
});
