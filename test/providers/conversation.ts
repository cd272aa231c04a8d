import type { CompletionResult, Failure } from '../../src/contracts/provider.js';
import type { ContextMessage } from '../../src/transcript/types.js';
import type { MessageDraft } from '../../src/transcript/draft.js';

/** A small agent session in canonical form: a system prompt, a task, a thinking tool call, its result. */
export function agentSession(options: { signed?: boolean } = {}): ContextMessage[] {
  const call: MessageDraft = {
    type: 'message',
    id: 'm2',
    role: 'assistant',
    text: 'Let me run the tests first.',
    thinking: 'The user wants the failing test fixed; run the suite to see which one fails.',
    toolCalls: [{ id: 'call-1', name: 'shell', args: { command: 'npm test -- test/auth/login.test.ts' } }],
  };
  if (options.signed !== false) call.thoughtSignature = 'c2lnLTE=';
  return [
    { type: 'message', id: 'm0', role: 'system', text: 'You are a coding agent working in /repo.' },
    { type: 'message', id: 'm1', role: 'user', text: 'Fix the failing login test in src/auth/login.ts.' },
    call,
    {
      type: 'message',
      id: 'm3',
      role: 'tool',
      toolCallId: 'call-1',
      toolName: 'shell',
      text: 'FAIL test/auth/login.test.ts\nTypeError: Cannot read properties of undefined (reading "token") at login.ts:42',
    },
  ];
}

/** The failure of a result that must have failed (the test fails otherwise). */
export function failureOf(result: CompletionResult): Failure {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
  return result.failure;
}
