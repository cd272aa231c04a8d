import { readFile, stat } from 'node:fs/promises';
import { InputError } from '../../../errors.js';
import type { TranscriptBuilder } from './builder.js';
import { isRecord } from './lines.js';
import { describeJsonError, placeJsonError } from './json-error.js';
import { refuseIrregularFile } from '../../../paths.js';

/** One entry of a document's main array, with the line its text starts on (for error messages). */
interface DocumentEntry {
  line: number;
  value: unknown;
}

export interface JsonDocument {
  /** The parsed document; undefined when it is broken and was salvaged under lenient. */
  root: unknown;
  /** The entries of the main array, in order. */
  entries: DocumentEntry[];
}

interface Span {
  start: number;
  end: number;
  line: number;
}

/**
 * Reads a single-JSON-document log. Such a file can only be parsed whole, so it is read whole
 * (unlike the JSONL formats, which are streamed). The main array is the root array, or the array
 * under `key` in the root object; each entry gets the line it starts on, so that errors name a
 * line even inside one big document. A broken document (say, cut off mid-write) fails with the
 * line of the JSON error — unless lenient, when every entry that parses on its own is kept and
 * the broken ones are recorded as skipped.
 */
export async function readJsonDocument(file: string, key: string | undefined, builder: TranscriptBuilder): Promise<JsonDocument> {
  const text = await readWhole(file);
  const spans = locateEntries(text, key);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    const place = placeJsonError(text, error as Error);
    const problem = new InputError({ file, line: place.line }, place.problem);
    if (!builder.lenient) throw problem;
    const entries = salvageEntries(text, spans, file, builder);
    if (entries.length === spans.length) builder.reject(problem);
    return { root: undefined, entries };
  }
  const items = Array.isArray(root) ? root : isRecord(root) && key !== undefined ? root[key] : undefined;
  if (!Array.isArray(items)) {
    throw new InputError({ file, ...(key === undefined ? {} : { field: key }) }, 'expected an array of entries');
  }
  return { root, entries: items.map((value: unknown, i) => ({ line: spans[i]?.line ?? 1, value })) };
}

/** A document larger than this is not outlined for detection (its head alone decides). */
const OUTLINE_MAX_BYTES = 512 * 2 ** 20;
/** What of a document its outline keeps: strings up to this length, arrays up to this many entries, this many levels. */
const OUTLINE_STRING = 120;
const OUTLINE_ENTRIES = 2;
const OUTLINE_DEPTH = 4;

/**
 * The outline of a file that is one JSON document, as pretty-printed lines for the same detectors
 * that read a head: every key of its top levels in order, long strings and arrays cut short. A key
 * far into the document (mini-swe-agent writes `trajectory_format` after a submission diff and
 * every message) is then within the lines detection reads. Undefined for a file that is not one
 * JSON document (JSONL logs, broken or oversized files).
 */
export async function outlineJsonDocument(file: string): Promise<string[] | undefined> {
  const size = await stat(file).then(
    (s) => s.size,
    () => Infinity,
  );
  if (size > OUTLINE_MAX_BYTES) return undefined;
  let root: unknown;
  try {
    root = JSON.parse(await readWhole(file));
  } catch {
    return undefined;
  }
  if (typeof root !== 'object' || root === null) return undefined;
  return JSON.stringify(outlineOf(root, 0), null, 2).split('\n');
}

function outlineOf(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > OUTLINE_STRING ? `${value.slice(0, OUTLINE_STRING)}…` : value;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= OUTLINE_DEPTH) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) return value.slice(0, OUTLINE_ENTRIES).map((v) => outlineOf(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, outlineOf(v, depth + 1)]));
}

/** The lines of the head joined back, for detectors of single-document formats. */
export function joinHead(firstLines: string[]): string {
  return firstLines.join('\n').trimStart();
}

function salvageEntries(text: string, spans: Span[], file: string, builder: TranscriptBuilder): DocumentEntry[] {
  const entries: DocumentEntry[] = [];
  for (const span of spans) {
    try {
      entries.push({ line: span.line, value: JSON.parse(text.slice(span.start, span.end)) });
    } catch (error) {
      builder.reject(new InputError({ file, line: span.line }, `broken entry, ${describeJsonError(error as Error)}`));
    }
  }
  return entries;
}

/**
 * Finds where each entry of the main array starts and ends, by scanning brackets and strings. It
 * tolerates a broken document: an entry cut off by the end of the text ends there.
 */
function locateEntries(text: string, key: string | undefined): Span[] {
  const locator = new EntryLocator(text, key === undefined ? undefined : JSON.stringify(key));
  for (let i = 0; i < text.length && !locator.done; i++) locator.step(i);
  locator.endEntry(text.length);
  return locator.spans;
}

class EntryLocator {
  readonly spans: Span[] = [];
  done = false;
  private depth = 0;
  /** The depth inside the main array, once it is open. */
  private target = -1;
  private line = 1;
  private inString = false;
  private escape = false;
  private stringStart = 0;
  private lastKey = '';
  private keyMatched = false;
  private rootIsObject = false;
  private entryStart = -1;
  private entryLine = 0;

  constructor(
    private readonly text: string,
    private readonly quotedKey: string | undefined,
  ) {}

  step(i: number): void {
    const c = this.text[i]!;
    if (c === '\n') {
      this.line += 1;
      // No JSON string holds a raw newline: a string still open here was broken by a stray
      // quote, and closing it keeps the scan of a pretty-printed document in step.
      this.inString = false;
    }
    if (this.inString) this.stepInString(c, i);
    else if (c === '"') {
      this.startEntry(i);
      this.inString = true;
      this.stringStart = i;
    } else if (c === '{' || c === '[') this.open(c, i);
    else if (c === '}' || c === ']') this.close(c, i);
    else if (c === ',') {
      if (this.depth === this.target) this.endEntry(i);
      if (this.depth === 1) this.keyMatched = false;
    } else if (c === ':') {
      if (this.depth === 1 && this.rootIsObject) this.keyMatched = this.lastKey === this.quotedKey;
    } else if (!/\s/.test(c)) this.startEntry(i);
  }

  endEntry(i: number): void {
    if (this.entryStart >= 0) this.spans.push({ start: this.entryStart, end: i, line: this.entryLine });
    this.entryStart = -1;
  }

  private stepInString(c: string, i: number): void {
    if (this.escape) this.escape = false;
    else if (c === '\\') this.escape = true;
    else if (c === '"') {
      this.inString = false;
      if (this.depth === 1) this.lastKey = this.text.slice(this.stringStart, i + 1);
    }
  }

  private open(c: string, i: number): void {
    if (this.depth === 0) this.rootIsObject = c === '{';
    this.startEntry(i);
    const opensTarget = c === '[' && this.target < 0 && ((this.depth === 0 && !this.rootIsObject) || (this.depth === 1 && this.keyMatched));
    this.depth += 1;
    if (opensTarget) this.target = this.depth;
  }

  private close(c: string, i: number): void {
    this.depth -= 1;
    if (c === ']' && this.depth === this.target - 1) {
      this.endEntry(i);
      this.done = true;
    }
  }

  private startEntry(i: number): void {
    if (this.depth === this.target && this.entryStart < 0) {
      this.entryStart = i;
      this.entryLine = this.line;
    }
  }
}

async function readWhole(file: string): Promise<string> {
  await refuseIrregularFile(file, 'the log');
  try {
    return (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  } catch (error) {
    throw new InputError({ file }, `cannot read the file: ${(error as Error).message}`);
  }
}
