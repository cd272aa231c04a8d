import { open, type FileHandle } from 'node:fs/promises';
import { describeTooDeep } from '../../json-depth.js';
import { createInterface } from 'node:readline';
import { InputError } from '../../../errors.js';
import type { TranscriptBuilder } from './builder.js';
import { describeJsonError } from './json-error.js';
import { refuseIrregularFile } from '../../../paths.js';

/** One line of a file, numbered from 1 as editors number them. */
interface NumberedLine {
  line: number;
  text: string;
}

/** The JSON object on one line of a JSONL file. */
export interface JsonLine {
  line: number;
  value: Record<string, unknown>;
}

/** How much of a file detection looks at: its first lines (enough to reach the first entry of a
 * pretty-printed document), and never more than this many bytes. */
const HEAD_LINES = 40;
const HEAD_BYTES = 256 * 1024;

/**
 * Streams a file's lines with their numbers (node:readline; the file is never held whole).
 * `maxBytes` stops reading after that many bytes, so the last line yielded may be cut short.
 */
async function* readLines(file: string, options: { maxBytes?: number } = {}): AsyncGenerator<NumberedLine> {
  const handle = await openForReading(file);
  const range = options.maxBytes === undefined ? {} : { start: 0, end: options.maxBytes - 1 };
  const lines = createInterface({ input: handle.createReadStream({ encoding: 'utf8', ...range }), crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const text of lines) {
      line += 1;
      // A UTF-8 byte-order mark is an editor artefact, not content.
      yield { line, text: line === 1 ? text.replace(/^\uFEFF/, '') : text };
    }
  } finally {
    lines.close();
    await handle.close();
  }
}

/** The first few lines of a file, for format detection (a bounded prefix, never the whole file). */
export async function readHead(file: string): Promise<string[]> {
  const head: string[] = [];
  for await (const { text } of readLines(file, { maxBytes: HEAD_BYTES })) {
    if (text.trim() === '') continue;
    head.push(text);
    if (head.length >= HEAD_LINES) break;
  }
  return head;
}

/**
 * Streams the JSON object on each non-blank line of a JSONL file. A line that is not a JSON
 * object goes to `builder.reject` (an InputError naming file and line, or a skipped line under
 * lenient). A broken *last* line is reported as truncated: agents append to these logs while they
 * run, so a copy taken mid-write ends in half a record.
 */
export async function* readJsonLines(file: string, builder: TranscriptBuilder): AsyncGenerator<JsonLine> {
  let broken: { line: number; problem: string } | undefined;
  for await (const { line, text } of readLines(file)) {
    if (text.trim() === '') continue;
    if (broken !== undefined) builder.reject(new InputError({ file, line: broken.line }, broken.problem));
    broken = undefined;
    const parsed = parseJsonObject(text);
    if (typeof parsed === 'string') broken = { line, problem: parsed };
    else yield { line, value: parsed };
  }
  if (broken !== undefined) {
    const cutShort = broken.problem.startsWith('invalid JSON');
    builder.reject(new InputError({ file, line: broken.line }, cutShort ? `truncated last line: ${broken.problem}` : broken.problem));
  }
}

/** Parses one line as a JSON object; returns the problem as a string when it is not one. */
export function parseJsonObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return describeJsonError(error as Error);
  }
  if (!isRecord(value)) return 'a line must be a JSON object';
  const deep = describeTooDeep(value);
  if (deep !== undefined) return `${deep.field}: ${deep.problem}`;
  return value;
}

/**
 * Each head's lines as JSON values, parsed once: telling a file's format asks whether it is a
 * canonical transcript and then several importers of the same head (`detectFormat`), and a head is
 * up to 256 KB of JSON; listing a corpus's 477 logs parsed each head four times. Callers only read them.
 */
const headValues = new WeakMap<readonly string[], unknown[]>();

/** What a head line that is not JSON parses to. */
const NOT_JSON = Symbol('not JSON');

/** The JSON value of line `i` of a head (`readHead`), `undefined` when it is not JSON or there is none. */
export function headValue(head: readonly string[], i: number): unknown {
  const value = valuesOf(head)[i];
  return value === NOT_JSON ? undefined : value;
}

function valuesOf(head: readonly string[]): unknown[] {
  let values = headValues.get(head);
  if (values === undefined) {
    values = head.map((text) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return NOT_JSON;
      }
    });
    headValues.set(head, values);
  }
  return values;
}

/** Each head's objects (`parseHeadObjects`), once: their depth is checked by walking them. */
const headObjects = new WeakMap<readonly string[], Record<string, unknown>[]>();

/** Parses each head line that is a whole JSON object; cut-short or non-JSON lines are left out. */
export function parseHeadObjects(firstLines: string[]): Record<string, unknown>[] {
  const known = headObjects.get(firstLines);
  if (known !== undefined) return known;
  const objects: Record<string, unknown>[] = [];
  for (const value of valuesOf(firstLines)) {
    // As parseJsonObject takes a line: an object, not nested past what a transcript may be.
    if (isRecord(value) && describeTooDeep(value) === undefined) objects.push(value);
  }
  headObjects.set(firstLines, objects);
  return objects;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function openForReading(file: string): Promise<FileHandle> {
  await refuseIrregularFile(file, 'the log');
  try {
    return await open(file, 'r');
  } catch (error) {
    throw new InputError({ file }, `cannot read the file: ${(error as Error).message}`);
  }
}
