import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { sessionHeaderSchema, transcriptEventSchema } from '../../../src/transcript/schema.js';
import type { MessageEvent, RecordedUsage, Transcript } from '../../../src/transcript/types.js';
import type { Writable } from '../../../src/transcript/draft.js';

/** Writes `contents` to a fresh temp folder and returns the file's path. */
export function writeTemp(name: string, contents: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ctxbench-import-')), name);
  writeFileSync(file, contents, 'utf8');
  return file;
}

/** JSONL text from records, one per line. */
export function jsonl(...records: unknown[]): string {
  return `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
}

export function messagesOf(transcript: Transcript): MessageEvent[] {
  return transcript.events.filter((event): event is MessageEvent => event.type === 'message');
}

/**
 * The invariants every import keeps: a header and events the canonical schema accepts, unique
 * message ids, and every tool message answering a call made earlier.
 */
export function expectCanonical(transcript: Transcript): void {
  expect(sessionHeaderSchema.safeParse(transcript.header).error).toBeUndefined();
  const ids = new Set<string>();
  const calls = new Set<string>();
  for (const event of transcript.events) {
    expect(transcriptEventSchema.safeParse(event).error, JSON.stringify(event).slice(0, 200)).toBeUndefined();
    if (event.type !== 'message') continue;
    expect(ids.has(event.id), `duplicate id ${event.id}`).toBe(false);
    ids.add(event.id);
    if (event.role === 'tool') expect(calls.has(event.toolCallId ?? ''), `unpaired ${event.toolCallId}`).toBe(true);
    for (const call of event.toolCalls ?? []) calls.add(call.id);
  }
}

/** Recorded usage summed per model (messages without a model under `?`). */
export function totalsByModel(transcript: Transcript): Record<string, Required<RecordedUsage>> {
  const totals: Record<string, Required<Writable<RecordedUsage>>> = {};
  for (const message of messagesOf(transcript)) {
    if (message.usage === undefined) continue;
    const sum = (totals[message.model ?? '?'] ??= { input: 0, cachedInput: 0, output: 0, reasoning: 0 });
    sum.input += message.usage.input ?? 0;
    sum.cachedInput += message.usage.cachedInput ?? 0;
    sum.output += message.usage.output ?? 0;
    sum.reasoning += message.usage.reasoning ?? 0;
  }
  return totals;
}
