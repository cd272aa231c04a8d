import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { z } from 'zod';
import { InputError } from '../errors.js';
import { eventSchemas, isEventType, sessionHeaderSchema } from './schema.js';
import type { MessageEvent, SessionHeader, SkippedLine, Transcript, TranscriptEvent } from './types.js';
import { describeSchemaError } from '../validate.js';
import { refuseIrregularFile } from '../paths.js';

export interface ReadOptions {
  /** Skip invalid event lines (recorded in `transcript.skipped`) instead of failing. A broken header is always fatal. */
  lenient?: boolean;
}

/** Why one line was rejected: the field (a dotted zod path) and a short problem. */
interface LineProblem {
  field?: string;
  problem: string;
}

type LineResult<T> = { ok: true; value: T } | { ok: false; error: LineProblem };

/**
 * Reads a canonical `*.ctx.jsonl` transcript line by line (the file is never held whole).
 * Blank lines are skipped; the first other line must be the `session` header.
 * @throws InputError naming file, line and field for the first invalid line (unless lenient).
 */
export async function readTranscript(file: string, options: ReadOptions = {}): Promise<Transcript> {
  await refuseIrregularFile(file, 'the transcript');
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new InputError({ file }, `cannot read the transcript: ${(error as Error).message}`);
  }
  const parser = createTranscriptParser(file, options);
  const lines = createInterface({ input: handle.createReadStream({ encoding: 'utf8' }), crlfDelay: Infinity });
  try {
    let line = 0;
    for await (const text of lines) parser.accept(text, ++line);
  } catch (error) {
    if (error instanceof InputError) throw error;
    // A read failure after opening (a directory, an I/O error) is still bad input, not a crash.
    throw new InputError({ file }, `cannot read the transcript: ${(error as Error).message}`);
  } finally {
    lines.close();
    await handle.close();
  }
  return parser.finish();
}

/** Parses transcript text held in memory; `file` only names it in errors. Same rules as readTranscript. */
export function parseTranscriptText(text: string, file: string, options: ReadOptions = {}): Transcript {
  const parser = createTranscriptParser(file, options);
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => parser.accept(line, index + 1));
  return parser.finish();
}

/** The line-at-a-time state machine behind both readers: header first, then events with reference checks. */
function createTranscriptParser(file: string, options: ReadOptions) {
  let header: SessionHeader | undefined;
  const events: TranscriptEvent[] = [];
  const skipped: SkippedLine[] = [];
  const messageLines = new Map<string, number>();
  const callIds = new Set<string>();

  const reject = (line: number, error: LineProblem): void => {
    if (!options.lenient) throw new InputError({ file, line, ...fieldOf(error) }, error.problem);
    const where = error.field === undefined ? '' : `field ${error.field}: `;
    skipped.push({ line, reason: `${where}${error.problem}` });
  };

  const acceptEvent = (event: TranscriptEvent, line: number): void => {
    if (event.type === 'message') {
      const problem = checkReferences(event, messageLines, callIds);
      if (problem !== undefined) return reject(line, problem);
      messageLines.set(event.id, line);
      for (const call of event.toolCalls ?? []) callIds.add(call.id);
    }
    events.push(event);
  };

  return {
    accept(raw: string, line: number): void {
      // A UTF-8 byte-order mark is an editor artefact, not content.
      const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (text.trim() === '') return;
      if (header === undefined) {
        const parsed = parseHeaderLine(text);
        if (!parsed.ok) throw new InputError({ file, line, ...fieldOf(parsed.error) }, parsed.error.problem);
        header = parsed.value;
        return;
      }
      const parsed = parseEventLine(text);
      if (parsed.ok) acceptEvent(parsed.value, line);
      else reject(line, parsed.error);
    },
    finish(): Transcript {
      if (header === undefined) throw new InputError({ file }, 'empty transcript: no session header line');
      return { header, events, file, skipped, unknown: {} };
    },
  };
}

function parseHeaderLine(text: string): LineResult<SessionHeader> {
  const json = parseJsonObject(text);
  if (!json.ok) return json;
  if (json.value.type !== 'session') {
    return { ok: false, error: { field: 'type', problem: 'the first line must be the session header (type "session")' } };
  }
  return validate(sessionHeaderSchema, json.value);
}

function parseEventLine(text: string): LineResult<TranscriptEvent> {
  const json = parseJsonObject(text);
  if (!json.ok) return json;
  const type = json.value.type;
  if (type === undefined) return { ok: false, error: { field: 'type', problem: 'missing event type' } };
  if (type === 'session') return { ok: false, error: { field: 'type', problem: 'a second session header' } };
  if (!isEventType(type)) {
    const known = Object.keys(eventSchemas).join(', ');
    return { ok: false, error: { field: 'type', problem: `unknown event type ${JSON.stringify(type)} (expected one of: ${known})` } };
  }
  return validate(eventSchemas[type] as z.ZodType<TranscriptEvent>, json.value);
}

function parseJsonObject(text: string): LineResult<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: { problem: `invalid JSON: ${(error as Error).message}` } };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: { problem: 'a line must be a JSON object' } };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function validate<T>(schema: z.ZodType<T>, value: unknown): LineResult<T> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const { field, message } = describeSchemaError(result.error, 'invalid event');
  return { ok: false, error: { field, problem: message } };
}

/** Ids must be unique, and a tool result must answer a call made earlier in the session. */
function checkReferences(message: MessageEvent, messageLines: Map<string, number>, callIds: Set<string>): LineProblem | undefined {
  const firstLine = messageLines.get(message.id);
  if (firstLine !== undefined) {
    return { field: 'id', problem: `duplicate message id ${JSON.stringify(message.id)} (first on line ${firstLine})` };
  }
  if (message.role === 'tool' && message.toolCallId !== undefined && !callIds.has(message.toolCallId)) {
    return { field: 'toolCallId', problem: `no earlier tool call has id ${JSON.stringify(message.toolCallId)}` };
  }
  return undefined;
}

function fieldOf(error: LineProblem): { field?: string } {
  return error.field === undefined || error.field === '' ? {} : { field: error.field };
}
