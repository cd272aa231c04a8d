import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Transcript, TranscriptEvent } from './types.js';

/**
 * The key order of each record kind, so that the same transcript always serialises to the same
 * bytes whatever order its objects were built in (diffs of fixtures stay readable).
 */
const KEY_ORDER = {
  session: ['type', 'id', 'title', 'source', 'dialect', 'model', 'contextWindow', 'totals'],
  source: ['format', 'file', 'licence'],
  message: [
    'type',
    'id',
    'role',
    'text',
    'thinking',
    'thoughtSignature',
    'toolCalls',
    'toolCallId',
    'toolName',
    'at',
    'usage',
    'model',
    'dialect',
    'reasoningTokens',
    'unloggedChars',
  ],
  toolCall: ['id', 'name', 'args', 'freeform'],
  usage: ['input', 'cachedInput', 'output', 'reasoning'],
  task: ['type', 'id', 'status', 'title', 'resultSummary', 'criteria', 'at', 'source'],
  probeEvent: ['type', 'probe'],
  probe: ['id', 'kind', 'question', 'expected', 'evidence', 'ask', 'origin'],
  expected: ['anyOf', 'allOf', 'regex', 'notInSession'],
  control: ['type', 'action', 'group', 'dialect', 'at'],
  compaction: ['type', 'id', 'summary', 'restored', 'tokensBefore', 'tokensAfter', 'at'],
} as const satisfies Record<string, readonly string[]>;

type Plain = Record<string, unknown>;

/**
 * Serialises a transcript as canonical JSONL: the header, then one event per line, keys in a fixed
 * order, a trailing newline. `skipped`, `unknown` and `file` are load-time facts and are not written.
 */
export function serializeTranscript(transcript: Transcript): string {
  const lines = [JSON.stringify(orderHeader(transcript.header as unknown as Plain))];
  for (const event of transcript.events) lines.push(serializeEvent(event));
  return `${lines.join('\n')}\n`;
}

/** One event as its JSONL line (no newline). */
export function serializeEvent(event: TranscriptEvent): string {
  return JSON.stringify(orderEvent(event as unknown as Plain));
}

/** Writes the transcript to `file` (the CLI and tests call it; the core never writes). */
export async function writeTranscript(transcript: Transcript, file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, serializeTranscript(transcript), 'utf8');
}

function orderHeader(header: Plain): Plain {
  const ordered = orderKeys(header, KEY_ORDER.session);
  if (isPlain(ordered.source)) ordered.source = orderKeys(ordered.source, KEY_ORDER.source);
  return ordered;
}

function orderEvent(event: Plain): Plain {
  switch (event.type) {
    case 'message':
      return orderMessage(event);
    case 'task':
      return orderKeys(event, KEY_ORDER.task);
    case 'probe':
      return orderProbeEvent(event);
    case 'control':
      return orderKeys(event, KEY_ORDER.control);
    case 'compaction':
      return orderKeys(event, KEY_ORDER.compaction);
    default:
      return orderKeys(event, []);
  }
}

function orderMessage(message: Plain): Plain {
  const ordered = orderKeys(message, KEY_ORDER.message);
  const calls = ordered.toolCalls;
  if (Array.isArray(calls)) {
    // Tool arguments are the agent's data: their own key order is kept as recorded.
    ordered.toolCalls = calls.map((call: unknown) => (isPlain(call) ? orderKeys(call, KEY_ORDER.toolCall) : call));
  }
  if (isPlain(ordered.usage)) ordered.usage = orderKeys(ordered.usage, KEY_ORDER.usage);
  return ordered;
}

function orderProbeEvent(event: Plain): Plain {
  const ordered = orderKeys(event, KEY_ORDER.probeEvent);
  if (isPlain(ordered.probe)) {
    const probe = orderKeys(ordered.probe, KEY_ORDER.probe);
    if (isPlain(probe.expected)) probe.expected = orderKeys(probe.expected, KEY_ORDER.expected);
    ordered.probe = probe;
  }
  return ordered;
}

/** Known keys first in their order, then any others alphabetically (none pass the schema, but none are lost). */
function orderKeys(value: Plain, order: readonly string[]): Plain {
  const ordered: Plain = {};
  for (const key of order) if (value[key] !== undefined) ordered[key] = value[key];
  const rest = Object.keys(value)
    .filter((key) => !order.includes(key))
    .sort();
  for (const key of rest) if (value[key] !== undefined) ordered[key] = value[key];
  return ordered;
}

function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
