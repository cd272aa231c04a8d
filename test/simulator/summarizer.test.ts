import { describe, expect, it } from 'vitest';
import { summarizeMessages } from '../../src/simulator/summarizer.js';
import { chooseSpecifics, paraphraseSpecifics } from '../../src/simulator/summary-specifics.js';
import { detectStyle } from '../../src/simulator/summary-style.js';
import { FITTED } from '../../src/simulator/summary-fit.js';
import { HANDOFF_PROMPT } from '../../src/strategies/codex-rebuild.js';
import { MAP_PROMPT } from '../../src/strategies/gatekeeper.js';
import { STRUCTURED_SUMMARY_PROMPT } from '../../src/strategies/reactive-compress.js';
import { RECAP_PROMPT } from '../../src/strategies/tri-modal.js';
import type { ContextMessage } from '../../src/transcript/types.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';

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
    // No specific of this short history is likely enough to be kept (summary-fit.ts), so no data section.
    expect(handoff.split('\n\n').map((block) => block.split(':')[0])).toEqual(['Goal', 'Next steps', 'Progress and decisions', 'Constraints']);
    const recap = summarizeMessages(session, { budgetTokens: 400, count, prompt: RECAP_PROMPT });
    expect(recap.startsWith('Done:\n')).toBe(true);
    const structured = summarizeMessages(session, { budgetTokens: 400, count, prompt: STRUCTURED_SUMMARY_PROMPT });
    expect(structured.split('\n\n').map((block) => block.split(':')[0])).toEqual([
      'Task',
      'Done so far',
      'Decisions',
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

  it('keeps the specifics a real summary keeps: by where they are named and how often, fewer in a shorter summary', () => {
    // The user names two files; the agent reads each of them a dozen times; a listing prints forty more once.
    const named = ['src/payments/webhook.ts', 'src/payments/retry_queue.ts'];
    const listed = Array.from({ length: 40 }, (_, i) => `lib/vendor/mod_${i}/index.js`);
    const history: ContextMessage[] = [
      message('u1', 'user', `Make ${named[0] ?? ''} idempotent; ${named[1] ?? ''} calls it.`),
      ...Array.from({ length: 12 }, (_, i) =>
        message(`a${i}`, 'assistant', 'Reading it again.', {
          toolCalls: named.map((path, j) => ({ id: `c${i}-${j}`, name: 'Read', args: { file_path: path } })),
        }),
      ),
      message('t1', 'tool', listed.join('\n'), { toolCallId: 'c0-0' }),
    ];
    const shares = { user: FITTED.keep.paths.user[3] ?? 0, tool: FITTED.keep.paths.tool[0] ?? 0 };
    expect(shares.user).toBeGreaterThan(shares.tool * 10);
    const expected = Math.round(2 * shares.user + 40 * shares.tool);
    const chosen = chooseSpecifics(history, 100_000);
    expect(expected).toBeGreaterThan(0);
    expect(chosen.paths.size).toBe(expected);
    for (const path of chosen.paths) expect(named).toContain(path);
    // A summary of a fraction of the length the fit predicts keeps that fraction.
    expect(chooseSpecifics(history, 1).paths.size).toBe(0);
    const summary = summarizeMessages(history, { budgetTokens: 100_000, count, prompt: STRUCTURED_SUMMARY_PROMPT });
    for (const path of chosen.paths) expect(summary).toContain(path);
    for (const path of listed) expect(summary).not.toContain(path);
    expect(paraphraseSpecifics('Ran handleWebhook in src/payments/retry_queue.ts (code 23505)', chooseSpecifics(session, 400))).toBe(
      'Ran handle webhook in retry queue.ts (code)',
    );
  });

  it('writes the length the fit predicts for the history, within the budget', () => {
    const long = Array.from({ length: 400 }, (_, i) =>
      message(`m${i}`, i % 2 === 0 ? 'user' : 'assistant', `Step ${i}: we changed the parser and reran the suite because the last run failed.`),
    );
    const chars = long.reduce((n, m) => n + m.text.length, 0);
    const predicted = FITTED.length.scale * (chars / 1000) ** FITTED.length.exponent;
    const written = count(summarizeMessages(long, { budgetTokens: 100_000, count, prompt: STRUCTURED_SUMMARY_PROMPT }));
    expect(written).toBeLessThanOrEqual(predicted);
    expect(written).toBeGreaterThan(0.8 * predicted);
    expect(count(summarizeMessages(long, { budgetTokens: 300, count, prompt: STRUCTURED_SUMMARY_PROMPT }))).toBeLessThanOrEqual(300);
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
