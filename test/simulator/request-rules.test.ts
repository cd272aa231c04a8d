import { describe, expect, it } from 'vitest';
import { refuseRequest } from '../../src/simulator/request-rules.js';
import { withRunMemos } from '../../src/memo.js';
import { createSimulator } from '../../src/simulator/transport.js';
import { createProvider } from '../../src/providers/index.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import type { ProviderName } from '../../src/contracts/provider.js';
import type { ContextMessage } from '../../src/transcript/types.js';

const system = (id: string): ContextMessage => ({ type: 'message', id, role: 'system', text: 'You are a coding agent.' });
const user = (id: string, text = 'Fix the failing test.'): ContextMessage => ({ type: 'message', id, role: 'user', text });
const say = (id: string, text = 'Done.'): ContextMessage => ({ type: 'message', id, role: 'assistant', text });
const call = (id: string, ...calls: string[]): ContextMessage => ({
  type: 'message',
  id,
  role: 'assistant',
  text: '',
  toolCalls: calls.map((c) => ({ id: c, name: 'bash', args: { cmd: 'pytest' } })),
});
const result = (id: string, callId: string): ContextMessage => ({ type: 'message', id, role: 'tool', text: '1 failed', toolCallId: callId, toolName: 'bash' });
/** A text-protocol agent (mini-swe-agent): its calls and results went to the model as plain text. */
const asText = (message: ContextMessage): ContextMessage => ({ ...message, sentAsText: true });

const OPENAI_UNANSWERED =
  /^An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'\. The following tool_call_ids did not have response messages: /;
const OPENAI_ORPHAN = "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
const GEMINI_COUNT = 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';

interface Case {
  name: string;
  context: ContextMessage[];
  /** What each provider answers: undefined = accepted; else its message (a string or a pattern) and the ids at fault. */
  openai?: { message: string | RegExp; ids: string[]; param?: string };
  gemini?: { message: string | RegExp; ids: string[] };
}

const CASES: Case[] = [
  { name: 'a call answered by its result', context: [system('s'), user('u'), call('a', 'c1'), result('r', 'c1'), say('d')] },
  { name: 'two calls, both answered', context: [user('u'), call('a', 'c1', 'c2'), result('r1', 'c1'), result('r2', 'c2')] },
  {
    name: 'a dropped result, its call kept',
    context: [user('u'), call('a', 'c1'), say('d'), user('u2')],
    openai: { message: /did not have response messages: c1$/, ids: ['a'], param: 'messages.[1].role' },
    gemini: { message: GEMINI_COUNT, ids: ['a', 'd', 'u2'] },
  },
  {
    name: 'an invented call at the end',
    context: [user('u'), call('a', 'c1'), result('r', 'c1'), call('ghost', 'g1')],
    openai: { message: /did not have response messages: g1$/, ids: ['ghost'], param: 'messages.[3].role' },
    gemini: { message: GEMINI_COUNT, ids: ['ghost'] },
  },
  {
    name: 'one of two results dropped',
    context: [user('u'), call('a', 'c1', 'c2'), result('r1', 'c1'), user('u2')],
    openai: { message: /did not have response messages: c2$/, ids: ['a', 'r1'] },
    gemini: { message: GEMINI_COUNT, ids: ['a', 'r1', 'u2'] },
  },
  {
    name: 'a result without its call',
    context: [user('u'), say('d'), result('r', 'c1')],
    openai: { message: OPENAI_ORPHAN, ids: ['r'], param: 'messages.[2].role' },
    gemini: { message: 'Please ensure that function response turn comes immediately after a function call turn.', ids: ['d', 'r'] },
  },
  {
    name: 'a result answering another call id',
    context: [user('u'), call('a', 'c1'), result('r', 'c9')],
    openai: { message: "Invalid parameter: 'tool_call_id' of 'c9' not found in 'tool_calls' of previous message.", ids: ['a', 'r'] },
  },
  {
    name: 'a call answered twice',
    context: [user('u'), call('a', 'c1'), result('r1', 'c1'), result('r2', 'c1')],
    openai: { message: OPENAI_ORPHAN, ids: ['r2'] },
    gemini: { message: GEMINI_COUNT, ids: ['a', 'r1', 'r2'] },
  },
  {
    name: 'a result after a user message that cut it from its call',
    context: [user('u'), call('a', 'c1'), user('u2'), result('r', 'c1')],
    openai: { message: OPENAI_UNANSWERED, ids: ['a'] },
  },
  {
    name: 'a history that opens on a call',
    context: [system('s'), call('a', 'c1'), result('r', 'c1'), user('u')],
    gemini: { message: 'Please ensure that function call turn comes immediately after a user turn or after a function response turn.', ids: ['a'] },
  },
  {
    name: 'an empty user message',
    context: [user('u'), say('d'), user('empty', '')],
    gemini: { message: /^Unable to submit request because it has an empty text parameter\./, ids: ['empty'] },
  },
  { name: 'no messages', context: [], openai: { message: "[] is too short - 'messages'", ids: [] }, gemini: { message: /contents is not specified/, ids: [] } },
  {
    name: 'a text-protocol agent: its calls and results are plain text, nothing to pair',
    context: [user('u'), asText({ ...call('a', 'c1'), text: 'Running the tests.\n```bash\npytest\n```' }), say('d'), asText(result('r', 'c1'))],
  },
];

describe('refuseRequest: what the providers refuse, in their words', () => {
  it.each(CASES.flatMap((c) => (['openai', 'gemini'] as const).map((format) => [`${format}: ${c.name}`, format, c] as const)))(
    '%s',
    (_name, format: ProviderName, c) => {
      const expected = c[format];
      const refusal = refuseRequest(format, c.context);
      if (expected === undefined) return expect(refusal).toBeUndefined();
      expect(refusal?.message).toMatch(expected.message);
      expect(refusal?.ids).toEqual(expected.ids);
      if (format === 'openai' && c.openai?.param !== undefined) expect(refusal?.param).toBe(c.openai.param);
    },
  );

  it('judges a request that extends an accepted one (the check resumes where it stopped) as it judges it alone', () => {
    const base = [user('u'), call('a', 'c1'), result('r1', 'c1')];
    for (const format of ['openai', 'gemini'] as const) {
      expect(refuseRequest(format, base)).toBeUndefined();
      const twice = [...base, result('r2', 'c1')];
      expect(refuseRequest(format, twice)?.ids).toContain('r2');
      expect(refuseRequest(format, [...base, call('b', 'c2')])?.ids).toContain('b');
      expect(refuseRequest(format, [...base, call('b', 'c2'), result('r3', 'c2')])).toBeUndefined();
      // A list that is not an extension (a compaction rewrote its start) is checked from the start.
      expect(refuseRequest(format, [user('u'), result('r1', 'c1')])).toBeDefined();
    }
  });

  it('judges the probes of a step (each the step on top of its question) as it judges each alone, within a run', () => {
    const step = [user('u'), call('a', 'c1'), result('r1', 'c1'), say('d')];
    const asks = (): ContextMessage[][] => [
      step,
      [...step, user('q1', 'Which test failed?')],
      // A sibling of the last: it extends the step's list, not the probe's before it.
      [...step, user('q2', 'Which file?')],
      [...step, result('orphan', 'c9'), user('q3', 'Which port?')],
      [...step, user('q4', 'Which command?')],
      // The next step, then a probe on top of it, and a list that extends neither.
      [...step, call('b', 'c2'), result('r2', 'c2')],
      [...step, call('b', 'c2'), result('r2', 'c2'), user('q5', 'Which test?')],
      [user('u'), result('r1', 'c1'), user('q6', 'Which test?')],
      [...step, call('b', 'c3'), user('q7', 'Which test?')],
    ];
    for (const format of ['openai', 'gemini'] as const) {
      const alone = asks().map((messages) => refuseRequest(format, messages)?.ids);
      // Within a run the check resumes from the lists it accepted; every verdict is the same.
      const inRun = withRunMemos({}, () => asks().map((messages) => refuseRequest(format, messages)?.ids));
      expect(inRun).toEqual(alone);
      expect(alone.filter((ids) => ids !== undefined).length).toBeGreaterThanOrEqual(3);
    }
  });

  it("counts OpenAI's request instruction as the first message in `param`", () => {
    expect(refuseRequest('openai', [user('u'), call('a', 'c1')], 'Summarise.')?.param).toBe('messages.[2].role');
  });
});

describe('the simulated provider refuses such a request through the SDK, as the real API does', () => {
  const tokenizer = createTokenizer('o200k_base');
  it.each(['openai', 'gemini'] as const)('%s: a 400 with its own message, classified invalid-request', async (name) => {
    const simulator = createSimulator({ tokenizer, seed: 1 });
    try {
      const provider = createProvider({ name, mode: 'mock', model: name === 'openai' ? 'gpt-4.1' : 'gemini-2.5-flash', simulator });
      const messages = [user('u'), call('a', 'c1'), say('d'), user('u2')];
      const answer = await provider.complete({
        model: 'm',
        messages,
        purpose: 'step',
        directive: { purpose: 'step', window: 100_000, replay: { text: 'ok' } },
      });
      expect(answer.ok).toBe(false);
      if (answer.ok) return;
      expect(answer.failure).toMatchObject({ kind: 'invalid-request', status: 400 });
      expect(answer.failure.message).toMatch(name === 'openai' ? OPENAI_UNANSWERED : GEMINI_COUNT);
      const valid = await provider.complete({
        model: 'm',
        messages: [user('u'), call('a', 'c1'), result('r', 'c1')],
        purpose: 'step',
        directive: { purpose: 'step', window: 100_000, replay: { text: 'ok' } },
      });
      expect(valid).toMatchObject({ ok: true, text: 'ok' });
    } finally {
      simulator.uninstall();
    }
  });
});
