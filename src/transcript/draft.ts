import type { ContextMessage, RecordedUsage, ToolCall } from './types.js';

/** `T` with its own fields writable: what an importer or a parser fills in before the message is done. */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A message being built (an importer's, a parser's, a generator's): writable, its usage too. Once
 * built it is a `ContextMessage`, read-only, and frozen when it enters a run (freeze.ts).
 */
export type MessageDraft = Writable<Omit<ContextMessage, 'usage' | 'toolCalls'>> & { usage?: Writable<RecordedUsage>; toolCalls?: ToolCall[] };
