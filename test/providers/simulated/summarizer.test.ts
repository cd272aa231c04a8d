import { describe, expect, it } from 'vitest';
import { summarizeMessages } from '../../../src/providers/simulated/summarizer.js';
import { chooseSpecifics, paraphraseSpecifics } from '../../../src/providers/simulated/summary-specifics.js';
import { detectStyle } from '../../../src/providers/simulated/summary-style.js';
import { HANDOFF_PROMPT } from '../../../src/strategies/codex-rebuild.js';
import { MAP_PROMPT } from '../../../src/strategies/gatekeeper.js';
import { STRUCTURED_SUMMARY_PROMPT } from '../../../src/strategies/reactive-compress.js';
import { RECAP_PROMPT } from '../../../src/strategies/tri-modal.js';
import type { ContextMessage } from '../../../src/transcript/types.js';
import { createTokenizer } from '../../../src/tokens/tokenizer.js';

const tokenizer = createTokenizer('o200k_base');
const count = (text: string) => tokenizer.count(text);

function message(id: string, role: ContextMessage['role'], text: string, extra: Partial<ContextMessage> = {}): ContextMessage {
  return { type: 'message', id, role, text, ...extra };
}

const session: ContextMessage[] = [
  message('u1', 'user', 'Please make the payment webhook idempotent. Do not touch the refunds module.'),
  message('a1', 'assistant', 'Let me find the handler first.', { toolCalls: [{ id: 'c1', name: 'shell', args: { command: 'git grep -n handleWebhook' } }] }),
  message('t1', 'tool', 'src/payments/webhook.ts:88: export async function handleWebhook(event) {\nsrc/payments/retry_queue.ts:12: import { handleWebhook }', {
    toolCallId: 'c1',
  }),
  message('a2', 'assistant', 'We decided to store processed event ids in Postgres because Redis is not durable here.', {
    toolCalls: [{ id: 'c2', name: 'edit_file', args: { path: 'src/payments/webhook.ts', old_string: 'a', new_string: 'b' } }],
  }),
  message('t2', 'tool', 'Error: duplicate key value violates unique constraint "events_pkey" (code 23505)', { toolCallId: 'c2' }),
  message('a3', 'assistant', 'Next I will add a migration for the processed_events table and rerun the tests on port 5432.'),
];

describe('the simulated summarizer', () => {
  it('reads the style off the strategies’ prompts', () => {
    expect([HANDOFF_PROMPT, RECAP_PROMPT, STRUCTURED_SUMMARY_PROMPT, MAP_PROMPT, ''].map(detectStyle)).toEqual([
      'handoff',
      'recap',
      'structured',
      'map',
      'structured',
    ]);
  });

  it('follows the prompt: a handoff leads with the goal and next steps, a recap with what was done', () => {
    const handoff = summarizeMessages(session, { budgetTokens: 400, count, prompt: HANDOFF_PROMPT });
    expect(handoff.split('\n\n').map((block) => block.split(':')[0])).toEqual(['Goal', 'Next steps', 'Progress and decisions', 'Constraints', 'Critical data']);
    const recap = summarizeMessages(session, { budgetTokens: 400, count, prompt: RECAP_PROMPT });
    expect(recap.startsWith('Done:\n')).toBe(true);
    const structured = summarizeMessages(session, { budgetTokens: 400, count, prompt: STRUCTURED_SUMMARY_PROMPT });
    expect(structured.split('\n\n').map((block) => block.split(':')[0])).toEqual([
      'Task',
      'Done so far',
      'Decisions',
      'Files and commands',
      'Errors and open problems',
      'Next steps',
    ]);
    const map = summarizeMessages(session, { budgetTokens: 400, count, prompt: MAP_PROMPT });
    expect(map).not.toMatch(/^\w[\w ]*:\n/m);
    expect(new Set([handoff, recap, structured, map]).size).toBe(4);
  });

  it('restates rather than copies: filler dropped, constraints apart', () => {
    const handoff = summarizeMessages(session, { budgetTokens: 400, count, prompt: HANDOFF_PROMPT });
    expect(handoff).toContain('Constraints:\n- Do not touch the refunds module.');
    expect(handoff).toContain('- Find the handler first.');
    expect(handoff).not.toContain('Let me find');
  });

  it('keeps about one path per 360 tokens of summary, one number per 720, one identifier per 310; paraphrases the rest', () => {
    const small = chooseSpecifics(session, 400);
    expect([...small.paths]).toEqual(['src/payments/webhook.ts']);
    expect([...small.numbers]).toEqual(['5432']);
    expect([...small.identifiers]).toEqual(['processed_events']);
    const summary = summarizeMessages(session, { budgetTokens: 400, count, prompt: STRUCTURED_SUMMARY_PROMPT });
    expect(summary).toContain('src/payments/webhook.ts');
    expect(summary).not.toContain('src/payments/retry_queue.ts');
    expect(summary).not.toContain('23505');
    expect(summary).not.toContain('handleWebhook');
    expect(paraphraseSpecifics('Ran handleWebhook in src/payments/retry_queue.ts (code 23505)', small)).toBe('Ran handle webhook in retry queue.ts (code)');
  });

  it('never exceeds the budget', () => {
    for (const budget of [0, 5, 20, 60, 120, 400]) {
      for (const prompt of [HANDOFF_PROMPT, RECAP_PROMPT, STRUCTURED_SUMMARY_PROMPT, MAP_PROMPT]) {
        expect(count(summarizeMessages(session, { budgetTokens: budget, count, prompt })), `budget ${budget}`).toBeLessThanOrEqual(budget);
      }
    }
  });

  it('is deterministic', () => {
    const first = summarizeMessages(session, { budgetTokens: 200, count, prompt: HANDOFF_PROMPT });
    expect(summarizeMessages(structuredClone(session), { budgetTokens: 200, count, prompt: HANDOFF_PROMPT })).toBe(first);
    expect(first).not.toBe('');
  });
});
