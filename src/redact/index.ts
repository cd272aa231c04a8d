import { runTextMemo } from '../memo.js';
import { SECRET_RULES, isHighEntropyToken, tokenRuns } from './patterns.js';

/**
 * The redactor: masks secret-shaped strings with a short typed marker, `[redacted:<kind>]`.
 * Pure and idempotent (a marker matches no rule), so an artifact redacted twice is the artifact
 * redacted once — which lets a resumed run's journal (already redacted) give the same bytes as an
 * uninterrupted run. Every file ctxbench writes and every message it prints passes through it
 * unless the user opts out (`--no-redact`).
 */

/** One secret found in a text: where it is (the secret itself, not the kept prefix) and its kind. */
export interface SecretSpan {
  kind: string;
  start: number;
  end: number;
}

/** The marker a secret of `kind` is replaced with. */
export function redactionMarker(kind: string): string {
  return `[redacted:${kind}]`;
}

// A run redacts the same texts many times over (a probe's question in every strategy's answers, a
// tool output in every report): the spans of each text are scanned once per run.
const secretSpans = runTextMemo<readonly SecretSpan[]>('secret-spans');

const NONE: readonly SecretSpan[] = Object.freeze([]);

/**
 * Past this length a text is scanned without the memo: a text that long is a report's part (a
 * unit's rows of a CSV, megabytes), which never comes again, and memoizing it pushed every
 * short text the memo holds out of it (a part is more than a generation of the memo's share).
 */
const MEMO_MAX_CHARS = 1 << 16;

/** Secrets in `text`, in order, without overlaps (a more specific rule wins). */
export function findSecrets(text: string): readonly SecretSpan[] {
  if (text.length < 8) return NONE;
  return text.length > MEMO_MAX_CHARS ? scanSecrets(text) : secretSpans.get(text, scanSecrets);
}

function scanSecrets(text: string): readonly SecretSpan[] {
  const spans: SecretSpan[] = [];
  const taken = (start: number, end: number): boolean => spans.some((s) => start < s.end && end > s.start);
  for (const rule of SECRET_RULES) {
    if (rule.requires !== undefined && !text.includes(rule.requires)) continue;
    for (const match of matchesOf(rule.pattern, text)) {
      const kept = rule.keepGroup === true ? (match[1] ?? '').length : 0;
      const start = (match.index ?? 0) + kept;
      const end = (match.index ?? 0) + match[0].length;
      const secret = text.slice(start, end);
      if (secret.startsWith('[redacted:') || (rule.accept !== undefined && !rule.accept(secret))) continue;
      if (!taken(start, end)) spans.push({ kind: rule.kind, start, end });
    }
  }
  for (const { start, end } of tokenRuns(text)) {
    if (!taken(start, end) && isHighEntropyToken(text.slice(start, end))) spans.push({ kind: 'high-entropy', start, end });
  }
  return spans.length === 0 ? NONE : Object.freeze(spans.sort((a, b) => a.start - b.start).map((span) => Object.freeze(span)));
}

/**
 * The matches of a global `pattern` in `text`, as `matchAll` finds them, from the pattern itself:
 * `matchAll` clones its pattern on every call, which was a tenth of a warm probe generation (28
 * rules over every text scanned). Not re-entrant per pattern: each is read to the end before the
 * next scan (`lastIndex` is 0 again once `exec` finds no more).
 */
function* matchesOf(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0].length === 0) pattern.lastIndex += 1;
    yield match;
  }
}

/** Whether `text` holds anything secret-shaped (a probe is never made of one). */
export function hasSecret(text: string): boolean {
  return findSecrets(text).length > 0;
}

/** `text` with every secret replaced by its marker. */
export function redactText(text: string): string {
  const spans = findSecrets(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + redactionMarker(span.kind);
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * A deep copy of `value` with every string redacted (object keys stay: they are field names).
 * Used on a result before it is rendered, so that no renderer's truncation can cut a secret into
 * a piece no rule recognises.
 */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactValue(item)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactValue(item);
    return out as T;
  }
  return value;
}

/**
 * `value` itself when no string in it holds anything secret-shaped, else `redactValue(value)`: most
 * results of a run hold none, and are then kept as they are rather than copied whole.
 */
export function redactWhereSecret<T>(value: T): T {
  return holdsSecret(value) ? redactValue(value) : value;
}

function holdsSecret(value: unknown): boolean {
  if (typeof value === 'string') return hasSecret(value);
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsSecret);
  return false;
}
