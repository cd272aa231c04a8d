import type { ContextMessage } from '../../transcript/types.js';
import type { StrategyEnv } from '../types.js';
import { dropOldestItem } from './message-units.js';
import { leadingSystem } from './history.js';

/** A strategy's own summary or recap request. */
export interface SummaryRequest {
  /** The summary prompt, sent as the system instruction. */
  instruction: string;
  messages: ContextMessage[];
  /** Output budget in tokens. */
  maxOutputTokens: number;
  purpose: 'summary' | 'recap';
  /** What the call is for, in the event (e.g. `handoff summary`). */
  reason: string;
  mode?: string;
  /**
   * When the request itself overflows the window, drop the oldest history item (a call goes with
   * its results; the leading system prompt is kept, as a provider keeps its instructions apart
   * from the items) and retry, until one item is left.
   */
  shrinkOnOverflow?: boolean;
}

export type SummaryOutcome = { ok: true; text: string; dropped: number } | { ok: false; reason: string };

/**
 * Asks the model (metered through `env.model`) for a summary and emits a `summary` / `recap`
 * action with the request's tokens before and the summary's after. A failed call, or an empty
 * answer, is returned as data after a `note` action: the caller decides the fallback.
 */
export async function requestSummary(env: StrategyEnv, request: SummaryRequest): Promise<SummaryOutcome> {
  const { instruction, maxOutputTokens, purpose, reason, mode } = request;
  const tag = mode === undefined ? {} : { mode };
  let messages = request.messages;
  let dropped = 0;
  for (;;) {
    const result = await env.model.complete({ instruction, messages, maxOutputTokens, purpose });
    const tokensBefore = env.countMessages(messages);
    if (result.ok && result.text.trim() !== '') {
      const text = result.text.trim();
      const detail = dropped > 0 ? { detail: `the request overflowed; dropped the ${dropped} oldest history items` } : {};
      env.emit({ action: purpose, reason, ...tag, tokensBefore, tokensAfter: env.count(text), ...detail });
      return { ok: true, text, dropped };
    }
    const system = leadingSystem(messages);
    if (!result.ok && result.failure.kind === 'overflow' && request.shrinkOnOverflow === true && messages.length - system.length > 1) {
      messages = [...system, ...dropOldestItem(messages.slice(system.length))];
      dropped += 1;
      continue;
    }
    const why = result.ok ? 'empty answer' : `${result.failure.kind}: ${result.failure.message}`;
    env.emit({ action: 'note', reason: `${reason} failed`, ...tag, tokensBefore, tokensAfter: tokensBefore, detail: why });
    return { ok: false, reason: why };
  }
}
