import { z } from 'zod';
import type { ContextMessage, MessageEvent } from '../../transcript/types.js';
import type { Failure } from '../../contracts/provider.js';
import type { RecoverDecision, Strategy, StrategyEnv } from '../types.js';
import { VERSION } from '../../version.js';
import { startPolicyProcess, type PolicyProcess } from './policy-process.js';
import { PROTOCOL_VERSION, parsePolicyLine, type ContextEntry, type PolicyAction, type PolicyMessage } from './protocol.js';

/** How a policy process is started: its command, folder and per-answer timeout. */
export interface PolicyCommand {
  argv: string[];
  cwd: string;
  timeoutMs: number;
}

interface State {
  options: Record<string, unknown>;
  sessionId: string;
  window: number;
  /** Started at the first event: `init` is synchronous, the handshake is not. */
  policy?: PolicyProcess;
  /** Observed messages by id, which the policy may name instead of sending them back. */
  byId: Map<string, MessageEvent>;
  observed: MessageEvent[];
}

/**
 * A strategy run by a child process over the JSON-lines protocol (docs/process-protocol.md): one
 * process per unit, started at the unit's first event and closed by `dispose` at its end. The
 * policy validates its own options (it answers the handshake with an `error` otherwise); every
 * failure of the process ends the unit with a `StrategyFailedError` that says what happened.
 */
export function createProcessStrategy(name: string, command: PolicyCommand): Strategy<Record<string, unknown>, State> {
  return {
    name,
    description: `policy process \`${command.argv.join(' ')}\` (docs/process-protocol.md)`,
    options: z.record(z.string(), z.unknown()),
    init: (options, context) => ({ options, sessionId: context.sessionId, window: context.window, byId: new Map(), observed: [] }),
    async observe(event, state, env) {
      const policy = await started(state, env, command);
      if (event.type === 'message') {
        state.byId.set(event.id, event);
        state.observed.push(event);
      }
      policy.send({ type: 'event', step: env.step, event });
    },
    async prepare(state, env) {
      const policy = await started(state, env, command);
      policy.send({ type: 'prepare', step: env.step, window: env.window, hiddenPrefix: env.hiddenPrefix ?? 0 });
      const answer = await answerOf(policy, state, env, 'context', `the context of step ${env.step}`);
      const context = resolveEntries(policy, state, answer.messages);
      emitActions(answer.actions, state, env, context);
      return context;
    },
    async recover(failure: Failure, state, env): Promise<RecoverDecision> {
      const policy = await started(state, env, command);
      policy.send({ type: 'recover', step: env.step, failure: { kind: failure.kind, message: failure.message } });
      const answer = await answerOf(policy, state, env, 'recover_result', `its decision after a ${failure.kind} failure at step ${env.step}`);
      emitActions(answer.actions, state, env, state.observed);
      return answer.decision;
    },
    async dispose(state) {
      state.policy?.send({ type: 'end' });
      await state.policy?.close();
    },
  };
}

/** The policy, started and past the handshake (which sends the options it must check). */
async function started(state: State, env: StrategyEnv, command: PolicyCommand): Promise<PolicyProcess> {
  if (state.policy !== undefined) return state.policy;
  const policy = startPolicyProcess(command.argv, command.cwd, command.timeoutMs);
  state.policy = policy;
  policy.send({
    type: 'hello',
    protocol: PROTOCOL_VERSION,
    ctxbench: VERSION,
    options: state.options,
    sessionId: state.sessionId,
    window: state.window,
    format: env.format,
  });
  const hello = await answerOf(policy, state, env, 'hello', 'the hello handshake');
  if (hello.protocol !== PROTOCOL_VERSION) throw policy.fail(`speaks protocol ${hello.protocol}; this ctxbench speaks ${PROTOCOL_VERSION}`);
  return policy;
}

/**
 * Reads lines until the awaited answer, serving the policy's own requests on the way: a
 * `model_call` becomes a metered, quota-bound call through `env.model`, a `count` is counted.
 */
async function answerOf<T extends PolicyMessage['type']>(
  policy: PolicyProcess,
  state: State,
  env: StrategyEnv,
  type: T,
  waitingFor: string,
): Promise<Extract<PolicyMessage, { type: T }>> {
  for (;;) {
    const parsed = parsePolicyLine(await policy.next(waitingFor));
    if (!parsed.ok) throw policy.fail(`${parsed.problem} (waiting for ${waitingFor})`);
    const message = parsed.message;
    if (message.type === type) return message as Extract<PolicyMessage, { type: T }>;
    if (message.type === 'error')
      throw policy.fail(`reported an error${message.field === undefined ? '' : ` in options.${message.field}`}: ${message.message}`, type === 'hello');
    if (message.type === 'model_call') {
      const result = await env.model.complete({
        instruction: message.instruction,
        messages: resolveEntries(policy, state, message.messages),
        maxOutputTokens: message.maxOutputTokens,
        ...(message.purpose !== undefined ? { purpose: message.purpose } : {}),
      });
      policy.send(
        result.ok
          ? { type: 'model_result', id: message.id, ok: true, text: result.text, usage: result.usage }
          : { type: 'model_result', id: message.id, ok: false, failure: result.failure },
      );
      continue;
    }
    if (message.type === 'count') {
      policy.send({ type: 'count_result', id: message.id, tokens: env.countMessages(resolveEntries(policy, state, message.messages)) });
      continue;
    }
    throw policy.fail(`answered \`${message.type}\` while ctxbench waited for ${waitingFor}`);
  }
}

/** Message ids become the observed messages; an unknown id fails the unit. */
function resolveEntries(policy: PolicyProcess, state: State, entries: readonly ContextEntry[]): ContextMessage[] {
  return entries.map((entry) => {
    if (typeof entry !== 'string') return entry as ContextMessage;
    const found = state.byId.get(entry);
    if (found === undefined) throw policy.fail(`named message id "${entry}", which it has not been sent`);
    return found;
  });
}

/** Actions for the timeline; missing token counts are ctxbench's: observed history before, the context after. */
function emitActions(actions: readonly PolicyAction[], state: State, env: StrategyEnv, after: readonly ContextMessage[]): void {
  for (const action of actions) {
    env.emit({
      action: action.action,
      reason: action.reason,
      ...(action.mode !== undefined ? { mode: action.mode } : {}),
      ...(action.detail !== undefined ? { detail: action.detail } : {}),
      tokensBefore: action.tokensBefore ?? env.countMessages(state.observed),
      tokensAfter: action.tokensAfter ?? env.countMessages(after),
    });
  }
}
