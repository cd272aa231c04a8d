import { runOwned } from '../memo.js';
import type { ProviderName } from '../contracts/provider.js';
import type { ContextMessage } from '../transcript/types.js';
import { asSent } from '../transcript/sent-as-text.js';

/**
 * A request the provider refuses for its shape (a 400 before the model runs), in the provider's
 * own words, with the canonical messages at fault.
 */
export interface RequestRefusal {
  /** The provider's message, as its API words it. */
  message: string;
  /** OpenAI's `param` (the message at fault, `messages.[i].role`); Gemini names none. */
  param?: string;
  /** Ids of the canonical messages concerned, in context order. */
  ids: string[];
}

/**
 * How the provider's API refuses a request body built from `messages` (after `instruction`), or
 * undefined when it accepts it. The rules are those the real APIs enforce on the message list
 * (DESIGN.md §5): every tool call answered by exactly one result, results after their calls, no
 * empty turn (Gemini), roles in an order the provider accepts. Messages are checked as they are
 * sent (`asSent`: a text-protocol agent's calls and results are plain text, with no pairing to keep).
 */
export function refuseRequest(format: ProviderName, messages: readonly ContextMessage[], instruction?: string): RequestRefusal | undefined {
  if (accepts(format, messages)) return undefined;
  return format === 'openai' ? refuseOpenAI(messages, instruction) : refuseGemini(messages);
}

/**
 * A pass over the messages that accepts a request without allocating, resumable where it stopped:
 * every request of a replay is checked, a long session re-sends thousands of messages at every
 * step, and most requests re-send the previous one with a few messages added. `step` is false for a
 * message the provider may refuse; `refuseOpenAI` / `refuseGemini` then say whether and why.
 */
interface Scan<S> {
  start(): S;
  step(state: S, messages: readonly ContextMessage[], i: number): boolean;
  end(state: S): boolean;
}

interface OpenAIScan {
  /** The calls of the assistant message whose results may follow, and how many came. */
  open: readonly { id: string }[] | undefined;
  answered: number;
  /** Index of the first result of the open block. */
  from: number;
  count: number;
}

const openaiScan: Scan<OpenAIScan> = {
  start: () => ({ open: undefined, answered: 0, from: 0, count: 0 }),
  step(state, messages, i) {
    state.count += 1;
    const message = sent(messages[i] as ContextMessage);
    if (message.role === 'tool') {
      const id = message.toolCallId;
      if (!state.open?.some((call) => call.id === id)) return false;
      for (let j = state.from; j < i; j++) if (messages[j]?.toolCallId === id) return false;
      state.answered += 1;
      return true;
    }
    if (state.open !== undefined && state.answered < state.open.length) return false;
    const calls = message.role === 'assistant' ? message.toolCalls : undefined;
    state.open = calls !== undefined && calls.length > 0 ? calls : undefined;
    state.answered = 0;
    state.from = i + 1;
    return true;
  },
  end: (state) => state.count > 0 && (state.open === undefined || state.answered >= state.open.length),
};

interface GeminiScan {
  role: 'user' | 'model' | undefined;
  turns: number;
  calls: number;
  responses: number;
  /** Calls of the model turn before the current user turn (0 before the first model turn). */
  callsBefore: number;
}

/**
 * The merged turns as they go: a user turn holds exactly as many responses as the model turn
 * before it made calls; a model turn with calls is neither first nor last; no text part is empty.
 */
const geminiScan: Scan<GeminiScan> = {
  start: () => ({ role: undefined, turns: 0, calls: 0, responses: 0, callsBefore: 0 }),
  step(state, messages, i) {
    const message = sent(messages[i] as ContextMessage);
    if (message.role === 'system') return true;
    const next = message.role === 'assistant' ? 'model' : 'user';
    if (next !== state.role) {
      if (state.role === 'user' && state.responses !== state.callsBefore) return false;
      if (state.role === 'model' && state.calls > 0 && state.turns === 1) return false;
      state.callsBefore = state.role === 'model' ? state.calls : 0;
      state.role = next;
      state.turns += 1;
      state.calls = 0;
      state.responses = 0;
    }
    const own = message.role === 'assistant' ? (message.toolCalls?.length ?? 0) : 0;
    if (message.role === 'tool') state.responses += 1;
    state.calls += own;
    return !isEmptyText(message, own);
  },
  end(state) {
    if (state.role === undefined) return false;
    return state.role === 'user' ? state.responses === state.callsBefore : state.calls === 0;
  },
};

const SCANS: { openai: Scan<OpenAIScan>; gemini: Scan<GeminiScan> } = { openai: openaiScan, gemini: geminiScan };

/** A list a format accepted and the scan's state at its end, to resume from when a list extends it. */
interface Accepted {
  messages: readonly ContextMessage[];
  state: object;
}

/**
 * The last list each format accepted, and the list that one resumed from (`base`). The simulator
 * answers an HTTP request, as a live provider would: no step diff comes with it (strategies' own
 * calls come here too), so it finds the shared run itself. A probe call sends the step's context
 * with its question on top: the next probe of the ask point extends the step's list, not the last
 * probe's, so the list a request resumed from is kept beside it (each probe of a step then scans
 * one message, not the whole context again).
 */
const lastAccepted = runOwned(() => new Map<ProviderName, { last: Accepted; base?: Accepted }>());

function accepts(format: ProviderName, messages: readonly ContextMessage[]): boolean {
  const scan = SCANS[format] as Scan<object>;
  const accepted = lastAccepted();
  const held = accepted?.get(format);
  const from = held === undefined ? undefined : resumable(messages, held.last, held.base);
  const state = from !== undefined ? { ...from.state } : scan.start();
  for (let i = from !== undefined ? from.messages.length : 0; i < messages.length; i++) if (!scan.step(state, messages, i)) return false;
  if (!scan.end(state)) return false;
  const last = { messages, state: { ...state } };
  // Kept beside it: the shorter list it resumed from (the step's, for a probe on top of it); for a
  // list scanned from the start (a strategy's own call), the list accepted before it.
  const base = from === undefined ? held?.last : from.messages.length < messages.length ? from : held?.base;
  accepted?.set(format, base !== undefined ? { last, base } : { last });
  return true;
}

/** The one of `last` and `base` that `messages` extends (`last` first), or undefined. */
function resumable(messages: readonly ContextMessage[], last: Accepted, base: Accepted | undefined): Accepted | undefined {
  if (extendsList(messages, last.messages)) return last;
  return base !== undefined && extendsList(messages, base.messages) ? base : undefined;
}

/** Whether `messages` starts with the very messages of `prefix` (the same objects). */
function extendsList(messages: readonly ContextMessage[], prefix: readonly ContextMessage[]): boolean {
  if (prefix.length > messages.length) return false;
  for (let i = 0; i < prefix.length; i++) if (messages[i] !== prefix[i]) return false;
  return true;
}

/** The message as the model saw it, without copying the plain majority. */
function sent(message: ContextMessage): ContextMessage {
  return message.sentAsText === true ? asSent(message) : message;
}

const OPENAI_UNANSWERED =
  "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ";
const OPENAI_ORPHAN = "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";

/** The assistant message whose calls the tool messages that follow it answer. */
interface OpenCalls {
  index: number;
  message: ContextMessage;
  pending: string[];
  answered: Set<string>;
  ids: string[];
}

/**
 * Chat completions: a `tool` message must follow, with only other `tool` messages between, an
 * assistant message whose `tool_calls` hold its `tool_call_id`, once; an assistant message with
 * `tool_calls` must be followed by a result for each of them before any other message. Roles are
 * otherwise free (consecutive user messages, a system message anywhere), and empty content is
 * accepted; an empty message list is not.
 */
function refuseOpenAI(messages: readonly ContextMessage[], instruction: string | undefined): RequestRefusal | undefined {
  const offset = instruction !== undefined && instruction !== '' ? 1 : 0;
  if (messages.length + offset === 0) return { message: "[] is too short - 'messages'", param: 'messages', ids: [] };
  let open: OpenCalls | undefined;
  for (const [i, original] of messages.entries()) {
    const message = asSent(original);
    const index = i + offset;
    if (message.role === 'tool') {
      const id = message.toolCallId ?? '';
      if (open === undefined || open.answered.has(id)) return { message: OPENAI_ORPHAN, param: `messages.[${index}].role`, ids: [message.id] };
      if (!open.pending.includes(id)) {
        return {
          message: `Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`,
          param: `messages.[${index}].tool_call_id`,
          ids: [open.message.id, message.id],
        };
      }
      open.answered.add(id);
      open.ids.push(message.id);
      continue;
    }
    if (open !== undefined) {
      const refused = unanswered(open);
      if (refused !== undefined) return refused;
    }
    const calls = message.role === 'assistant' ? (message.toolCalls ?? []) : [];
    open = calls.length > 0 ? { index, message, pending: calls.map((call) => call.id), answered: new Set(), ids: [message.id] } : undefined;
  }
  return open === undefined ? undefined : unanswered(open);
}

function unanswered(open: OpenCalls): RequestRefusal | undefined {
  const missing = open.pending.filter((id) => !open.answered.has(id));
  if (missing.length === 0) return undefined;
  return { message: `${OPENAI_UNANSWERED}${missing.join(', ')}`, param: `messages.[${open.index}].role`, ids: open.ids };
}

const GEMINI_NO_CONTENTS = '* GenerateContentRequest.contents: contents is not specified\n';
const GEMINI_EMPTY_TEXT =
  'Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again. ' +
  'Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini';
const GEMINI_CALL_PLACE = 'Please ensure that function call turn comes immediately after a user turn or after a function response turn.';
const GEMINI_RESPONSE_PLACE = 'Please ensure that function response turn comes immediately after a function call turn.';
const GEMINI_COUNT = 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';

/** One Gemini content: the canonical messages merged into it (render-gemini.ts merges adjacent same-role turns). */
interface Turn {
  role: 'user' | 'model';
  calls: number;
  responses: number;
  ids: string[];
  /** The first message of the turn sent as an empty text part. */
  emptyId?: string;
}

/**
 * `generateContent`: the contents alternate user and model turns (the request builder merges
 * adjacent ones); a model turn with function calls comes right after a user turn and is followed
 * by a user turn holding exactly as many function responses; a turn with function responses comes
 * right after a function-call turn; no text part is empty; there is at least one content.
 */
function refuseGemini(messages: readonly ContextMessage[]): RequestRefusal | undefined {
  const turns = geminiTurns(messages);
  if (turns.length === 0) return { message: GEMINI_NO_CONTENTS, ids: [] };
  for (const [k, turn] of turns.entries()) {
    if (turn.emptyId !== undefined) return { message: GEMINI_EMPTY_TEXT, ids: [turn.emptyId] };
    const before = turns[k - 1];
    const after = turns[k + 1];
    if (turn.calls > 0) {
      if (before === undefined) return { message: GEMINI_CALL_PLACE, ids: turn.ids };
      if (after?.responses !== turn.calls) return { message: GEMINI_COUNT, ids: [...turn.ids, ...(after?.ids ?? [])] };
    }
    if (turn.responses > 0 && (before === undefined || before.calls === 0)) {
      return { message: GEMINI_RESPONSE_PLACE, ids: [...(before?.ids ?? []), ...turn.ids] };
    }
  }
  return undefined;
}

function geminiTurns(messages: readonly ContextMessage[]): Turn[] {
  const turns: Turn[] = [];
  for (const original of messages) {
    const message = asSent(original);
    if (message.role === 'system') continue;
    const role = message.role === 'assistant' ? 'model' : 'user';
    let turn = turns[turns.length - 1];
    if (turn?.role !== role) {
      turn = { role, calls: 0, responses: 0, ids: [] };
      turns.push(turn);
    }
    turn.ids.push(message.id);
    if (message.role === 'tool') turn.responses += 1;
    const calls = message.role === 'assistant' ? (message.toolCalls?.length ?? 0) : 0;
    turn.calls += calls;
    if (turn.emptyId === undefined && isEmptyText(message, calls)) turn.emptyId = message.id;
  }
  return turns;
}

/** A message rendered as a lone empty text part: a user message without text, an assistant message with nothing at all. */
function isEmptyText(message: ContextMessage, calls: number): boolean {
  if (message.text !== '') return false;
  if (message.role === 'user') return true;
  return message.role === 'assistant' && calls === 0 && (message.thinking ?? '') === '';
}
