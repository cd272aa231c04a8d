import { basename } from 'node:path';
import { InputError, formatLocation } from '../../../errors.js';
import type { CompactionEvent, Dialect, MessageEvent, SessionHeader, SkippedLine, ToolCall, Transcript, TranscriptEvent } from '../../types.js';
import type { MessageDraft, Writable } from '../../draft.js';

/** A message as an importer describes it; the builder adds `type`, a unique id and the dialect. */
type MessageInit = Omit<MessageEvent, 'type' | 'dialect'> & { dialect?: Dialect };

/** A tool result as the source recorded it: the call it answers by the source's id or by name. */
interface ToolResultInit {
  id: string;
  /** The call id as the source spelled it; omitted by formats that pair by name (Gemini contents). */
  callId?: string;
  name?: string;
  text: string;
  at?: string;
}

/** The header fields an importer knows; the builder adds `type`, `source` and `dialect`. */
type HeaderInit = Omit<SessionHeader, 'type' | 'source' | 'dialect'>;

export interface TranscriptBuilder {
  readonly file: string;
  readonly lenient: boolean;
  /** Appends a message; its id is made unique (a repeat gets `#2`, `#3`, ...). Returns the live event, to merge into. */
  addMessage(init: MessageInit): MessageDraft;
  /** Adds a call to an assistant message. A call id the source reused gets a unique one; results pair with the latest. */
  addToolCall(message: MessageDraft, call: { callId: string; name: string; args: Record<string, unknown>; freeform?: true }): ToolCall;
  /**
   * Appends the `tool` message answering a call made earlier. A result with no recorded call
   * cannot be a tool message (no provider accepts it): it becomes a user message, counted in
   * `unknown` as `tool result without a call`.
   */
  addToolResult(result: ToolResultInit): MessageDraft;
  addCompaction(init: Omit<CompactionEvent, 'type'>): Writable<CompactionEvent>;
  /** Counts a foreign record type that was seen but not mapped. */
  countUnknown(type: string): void;
  /** Throws the error, or under lenient records its line in `skipped` and carries on. */
  reject(error: InputError): void;
  /** Runs `apply` for one record; an InputError from it goes to `reject`. */
  attempt(apply: () => void): void;
  build(header: HeaderInit): Transcript;
}

interface CallRecord {
  id: string;
  name: string;
  answered: boolean;
}

/** Collects the events of one import and keeps its invariants: unique ids, paired tool results. */
export function createTranscriptBuilder(init: { file: string; format: string; dialect: Dialect; lenient?: boolean | undefined }): TranscriptBuilder {
  return new Collector(init.file, init.format, init.dialect, init.lenient === true);
}

class Collector implements TranscriptBuilder {
  private readonly events: TranscriptEvent[] = [];
  private readonly skipped: SkippedLine[] = [];
  private readonly unknown: Record<string, number> = {};
  private readonly usedIds = new Set<string>();
  private readonly callIds = new Set<string>();
  private readonly callsBySource = new Map<string, CallRecord>();
  private readonly calls: CallRecord[] = [];

  constructor(
    readonly file: string,
    private readonly format: string,
    private readonly dialect: Dialect,
    readonly lenient: boolean,
  ) {}

  addMessage(message: MessageInit): MessageDraft {
    const event = withoutUndefined({
      type: 'message',
      ...message,
      id: uniqueIn(this.usedIds, message.id),
      dialect: message.dialect ?? this.dialect,
    }) as MessageDraft;
    this.events.push(event);
    return event;
  }

  addToolCall(message: MessageDraft, call: { callId: string; name: string; args: Record<string, unknown>; freeform?: true }): ToolCall {
    const record = { id: uniqueIn(this.callIds, call.callId), name: call.name, answered: false };
    this.callsBySource.set(call.callId, record);
    this.calls.push(record);
    const toolCall: ToolCall = { id: record.id, name: call.name, args: call.args, ...(call.freeform === true ? { freeform: true as const } : {}) };
    (message.toolCalls ??= []).push(toolCall);
    return toolCall;
  }

  addToolResult(result: ToolResultInit): MessageDraft {
    const call = findCall(result, this.callsBySource, this.calls);
    if (call === undefined) {
      this.countUnknown('tool result without a call');
      const label = result.callId ?? result.name ?? 'an unknown call';
      return this.addMessage({ id: result.id, role: 'user', text: `[result of ${label}, whose call was not recorded]\n${result.text}`, at: result.at });
    }
    call.answered = true;
    return this.addMessage({ id: result.id, role: 'tool', text: result.text, toolCallId: call.id, toolName: result.name ?? call.name, at: result.at });
  }

  addCompaction(compaction: Omit<CompactionEvent, 'type'>): Writable<CompactionEvent> {
    const event = withoutUndefined({ type: 'compaction', ...compaction, id: uniqueIn(this.usedIds, compaction.id) }) as Writable<CompactionEvent>;
    this.events.push(event);
    return event;
  }

  countUnknown(type: string): void {
    this.unknown[type] = (this.unknown[type] ?? 0) + 1;
  }

  /**
   * A call with no result while the session went on after it: the line that held its result was
   * skipped (`--lenient` over a damaged log). The agent got an answer, and no provider accepts a
   * call without one (the simulated provider refuses such a request as the real one does), so the
   * call is answered with a stand-in right after its turn's other results, counted in `unknown`.
   * A call left open at the end of the log needs no answer: no request follows it.
   */
  private answerLostResults(): void {
    if (this.calls.every((call) => call.answered)) return;
    const open = new Set(this.calls.filter((call) => !call.answered).map((call) => call.id));
    for (let i = 0; i < this.events.length; i++) {
      const event = this.events[i] as TranscriptEvent;
      if (event.type !== 'message' || event.role !== 'assistant' || event.toolCalls === undefined) continue;
      const lost = event.toolCalls.filter((call) => open.has(call.id));
      if (lost.length === 0) continue;
      let end = i + 1;
      while (end < this.events.length && isToolMessage(this.events[end] as TranscriptEvent)) end++;
      if (!this.events.slice(end).some((later) => later.type === 'message')) continue;
      const stand = lost.map((call) => {
        this.countUnknown('tool call whose result was not recorded');
        return {
          type: 'message',
          id: uniqueIn(this.usedIds, `${call.id}:lost-result`),
          role: 'tool',
          text: LOST_RESULT_TEXT,
          toolCallId: call.id,
          toolName: call.name,
          dialect: event.dialect,
        } as MessageEvent;
      });
      this.events.splice(end, 0, ...stand);
      i = end + stand.length - 1;
    }
  }

  reject(error: InputError): void {
    // A foreign log often holds a line its agent damaged (a crash mid-write); say how to go on.
    if (!this.lenient) throw new InputError(error.location, `${problemOf(error)} (--lenient skips such lines and counts them)`);
    this.skipped.push({ line: error.location.line ?? 0, reason: reasonOf(error) });
  }

  attempt(apply: () => void): void {
    try {
      apply();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      this.reject(error);
    }
  }

  build(header: HeaderInit): Transcript {
    this.answerLostResults();
    const source = { format: this.format, file: basename(this.file) };
    const session = withoutUndefined({ type: 'session', ...header, source, dialect: this.dialect }) as SessionHeader;
    return { header: session, events: this.events, file: this.file, skipped: this.skipped, unknown: this.unknown };
  }
}

/** What a call whose result the log lost is answered with: the agent got a result; its text is unknown. */
export const LOST_RESULT_TEXT = '[no result recorded: the log line that held it could not be read]';

function findCall(result: ToolResultInit, bySource: Map<string, CallRecord>, calls: CallRecord[]): CallRecord | undefined {
  const byId = result.callId === undefined ? undefined : bySource.get(result.callId);
  if (byId !== undefined || result.name === undefined) return byId;
  // Without ids (older Gemini contents), a response answers the oldest open call of the same name.
  return calls.find((call) => !call.answered && call.name === result.name);
}

function isToolMessage(event: TranscriptEvent): boolean {
  return event.type === 'message' && event.role === 'tool';
}

/** `base`, or `base#2`, `base#3`, ... : the first not yet used. Deterministic, so ids stay stable. */
function uniqueIn(used: Set<string>, base: string): string {
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}#${n}`;
  used.add(id);
  return id;
}

/** The problem of an InputError without its location prefix, with the field, for `skipped`. */
function problemOf(error: InputError): string {
  const prefix = `${formatLocation(error.location)}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}

function reasonOf(error: InputError): string {
  const problem = problemOf(error);
  return error.location.field === undefined ? problem : `field ${error.location.field}: ${problem}`;
}

/** Drops undefined fields, so events carry only what the source recorded. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
