import { runWeakMap } from '../memo.js';
import type { Probe } from '../transcript/types.js';
import { containsNormalised, normaliseAnswer } from './grade.js';

// Joins texts so that no match can span two of them: no message text contains a NUL.
export const SEPARATOR = '\u0000';

// An evidence text this short ("ok", "Done.") is found in almost any context by accident, so it
// proves nothing; the probe then relies on its ground truth.
const MIN_EVIDENCE_CHARS = 12;

/** The context of one step, joined once so that every probe is one `indexOf` away. */
export interface PreparedContext {
  /** The texts as sent, joined with a separator no text contains. */
  readonly raw: string;
  /** The same texts, each normalised (grade.ts `normaliseAnswer`), joined alike. */
  readonly normalised: string;
}

/**
 * An evidence text with an anchor: a short window that occurs once in the text. Searching the
 * context for the anchor and then comparing the whole text in place is far faster than searching
 * for a long text, which degrades badly on repetitive logs.
 */
export interface EvidenceText {
  readonly text: string;
  readonly anchor: string;
  /** Where the anchor starts in `text`. */
  readonly anchorOffset: number;
}

const ANCHOR_CHARS = 48;
const ANCHOR_TRIES = 16;

function anchorEvidence(text: string): EvidenceText {
  const length = Math.min(ANCHOR_CHARS, text.length);
  const stride = Math.max(1, Math.floor((text.length - length) / ANCHOR_TRIES));
  for (let offset = 0; offset + length <= text.length; offset += stride) {
    const anchor = text.slice(offset, offset + length);
    if (text.indexOf(anchor) === text.lastIndexOf(anchor)) return { text, anchor, anchorOffset: offset };
  }
  // Every window repeats (a periodic text): any window still works, only slower.
  return { text, anchor: text.slice(0, length), anchorOffset: 0 };
}

/** Whether `evidence` occurs verbatim in `raw`. */
export function containsEvidence(raw: string, evidence: EvidenceText): boolean {
  const { text, anchor, anchorOffset } = evidence;
  // A text shorter than the evidence cannot hold it (most messages of a context, for a long tool output).
  if (raw.length < text.length) return false;
  for (let at = raw.indexOf(anchor); at >= 0; at = raw.indexOf(anchor, at + 1)) {
    if (at >= anchorOffset && raw.startsWith(text, at - anchorOffset)) return true;
  }
  return false;
}

/** What retention needs of a probe, computed once per probe rather than at every step. */
export interface PreparedProbe {
  /** False for probes whose answer is an absence (`notInSession`): nothing to retain. */
  readonly measurable: boolean;
  readonly evidence: readonly EvidenceText[];
  readonly anyOf: readonly string[];
  readonly allOf: readonly string[];
  readonly regex?: RegExp;
}

/**
 * Prepares a step's context texts (render them as the evidence was rendered, e.g. with
 * message-text.ts `renderMessageText`). Call once per step and share across probes.
 */
export function prepareContext(texts: readonly string[]): PreparedContext {
  return { raw: texts.join(SEPARATOR), normalised: texts.map(normaliseAnswer).join(SEPARATOR) };
}

function compileRegex(source: string | undefined): RegExp | undefined {
  if (source === undefined) return undefined;
  try {
    return new RegExp(source, 'i');
  } catch {
    return undefined; // grading reports the invalid pattern; retention just cannot use it
  }
}

/** Precomputes a probe's normalised ground truth and usable evidence texts. */
export function prepareProbe(probe: Probe, evidenceTexts: readonly string[]): PreparedProbe {
  const expected = probe.expected;
  const regex = compileRegex(expected.regex);
  const normalise = (list: readonly string[] | undefined): string[] => (list ?? []).map(normaliseAnswer).filter((s) => s !== '');
  return {
    measurable: expected.notInSession !== true,
    evidence: evidenceTexts.filter((t) => t.trim().length >= MIN_EVIDENCE_CHARS && !t.includes(SEPARATOR)).map(anchorEvidence),
    anyOf: normalise(expected.anyOf),
    allOf: normalise(expected.allOf),
    ...(regex === undefined ? {} : { regex }),
  };
}

/**
 * Whether a prepared probe's evidence is still in a prepared context: an evidence text verbatim
 * inside one context text, or the ground truth present (any of `anyOf`, all of `allOf`, the
 * regex). `null` when the probe cannot be measured (an absence, or nothing to look for).
 */
export function isPreparedRetained(probe: PreparedProbe, context: PreparedContext): boolean | null {
  if (!probe.measurable) return null;
  const hasTruth = probe.anyOf.length > 0 || probe.allOf.length > 0 || probe.regex !== undefined;
  if (probe.evidence.length === 0 && !hasTruth) return null;
  if (probe.evidence.some((e) => containsEvidence(context.raw, e))) return true;
  if (probe.anyOf.some((s) => containsNormalised(context.normalised, s))) return true;
  if (probe.allOf.length > 0 && probe.allOf.every((s) => containsNormalised(context.normalised, s))) return true;
  return probe.regex?.test(context.raw) ?? false;
}

interface CacheEntry {
  evidenceTexts: readonly string[];
  prepared: PreparedProbe;
}

// Probes are long-lived objects asked about at every step; a weak map keeps their prepared form
// without holding them alive.
const preparedCache = runWeakMap<Probe, CacheEntry>();

function sameTexts(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((t, i) => t === b[i]));
}

function prepareCached(probe: Probe, evidenceTexts: readonly string[]): PreparedProbe {
  const entry = preparedCache.get(probe);
  if (entry !== undefined && sameTexts(entry.evidenceTexts, evidenceTexts)) return entry.prepared;
  const prepared = prepareProbe(probe, evidenceTexts);
  preparedCache.set(probe, { evidenceTexts, prepared });
  return prepared;
}

function isPreparedContext(context: readonly string[] | PreparedContext): context is PreparedContext {
  return !Array.isArray(context);
}

/**
 * Whether a probe's evidence is still in the context a strategy sends (see `isPreparedRetained`).
 * Pass a `PreparedContext` when checking many probes against one step; the probe's own forms are
 * cached per probe object.
 */
export function isRetained(probe: Probe, context: readonly string[] | PreparedContext, evidenceTexts: readonly string[]): boolean | null {
  const prepared = isPreparedContext(context) ? context : prepareContext(context);
  return isPreparedRetained(prepareCached(probe, evidenceTexts), prepared);
}
