import type { Fact } from './fact.js';

/**
 * Decision and next-step facts in Chinese prose: what an agent writing Chinese says when it sets
 * out (`讓我…`, `我需要…`), says what comes next (`接下來…`), chooses (`決定…`, `改用…`, `X 而不是 Y`)
 * and gives a reason (`因為…`, `…，所以…`, `為了…`, a `原因：` line). Traditional and simplified
 * forms alike. Questions stay in English (their hint words come from the line, findable.ts); the
 * answer is the Chinese span as written.
 */

const HAN = String.raw`\p{Script=Han}`;
const HAS_HAN = new RegExp(HAN, 'u');

/** A CJK answer's most characters: about as much as the six words of an English one. */
const MAX_ANSWER_CHARS = 32;

// Who sets out: `讓我` (let me), `我來` (I'll), `我將`/`我會` (I will), `我需要` (I need to), `我要`, `我先` (first I).
const SUBJECT = String.raw`(?:讓我們|让我们|讓我|让我|我們來|我们来|我來|我来|我將|我将|我會|我会|我們需要|我们需要|我需要|我要|我先)`;
const OPENER = String.raw`(?:(?:首先|現在|现在|好的|那麼|那么|接著|接着|所以)[，,]?\s*)?`;
const SETTING_OUT = new RegExp(String.raw`^${OPENER}${SUBJECT}\s*(.+)$`, 'u');
const NEXT_STEP = new RegExp(String.raw`^(?:接下來|接下来|然後|然后|下一步|之後|之后|隨後|随后)[，,:]?\s*(?:${SUBJECT}|我們|我们|我)?\s*(.+)$`, 'u');

// A choice, at a clause's start or after who chose: `決定…` (decided), `改用`/`採用`/`選擇`/`選用` (switch to, adopt, choose).
const CHOOSER = String.raw`(?:我們|我们|我|所以|因此|最終|最终|最後|最后)?`;
const DECIDED = new RegExp(String.raw`^${CHOOSER}(?:決定|决定)(?:改用|使用|採用|采用|用)?\s*(.+)$`, 'u');
const CHOSE = new RegExp(String.raw`^${CHOOSER}(?:改用|採用|采用|選擇|选择|選用|选用)\s*(.+)$`, 'u');
const INSTEAD = /(?:使用|用|採用|采用|改用|選擇|选择)\s*(.+?)\s*(?:而不是|而非|來代替|来代替|代替|取代)\s*(.+)$/u;

// A reason: fronted (`因為 X，Y`, `為了 X，Y`), trailing (`Y，因為 X`), or before `所以` (`X，所以 Y`).
const FRONTED_REASON = /^(?:因為|因为|由於|由于|為了|为了)\s*(.+?)[，,]\s*(.+)$/u;
const TRAILING_REASON = /^(.+?)[，,]\s*(?:這是|这是)?(?:因為|因为|由於|由于)\s*(.+)$/u;
const SO_REASON = /^(.+?)[，,]\s*(?:所以|因此)\s*(.+)$/u;
// A labelled line of a summary: `**原因**: …`, `理由：…` (reason), `**解決**: …`, `決定：…` (what was done).
const LABELLED = /^[-*•\s]*\**\s*(原因|理由|解決方案|解决方案|解決|解决|決定|决定)\s*\**\s*[:：]\s*(.+)$/u;

/** Sentences of a text: a CJK full stop, `！`, `？`, `；` or a line break ends one. */
function splitSentences(text: string): string[] {
  return text
    .split(/[。！？；!?;]+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * A span cleaned into an answer: no markup or quotes at its edges, cut to its first clause when
 * long; undefined without two Han characters (`它`, `這個` alone say nothing).
 */
function cleanSpan(span: string): string | undefined {
  let text = span.replace(/[`"「」『』“”]/gu, '').replace(/^[\s*'：:]+|[\s*'：:，,、.]+$/gu, '');
  if ([...text].length > MAX_ANSWER_CHARS) {
    const chars = [...(text.split(/[，,、]/u)[0] ?? text)];
    let end = Math.min(chars.length, MAX_ANSWER_CHARS);
    // Never inside a Latin word or a number: `toolchain`, not `toolch`.
    while (end > 0 && end < chars.length && /[\w.]/.test(chars[end - 1] ?? '') && /[\w.]/.test(chars[end] ?? '')) end--;
    text = chars.slice(0, end).join('').trimEnd();
  }
  const han = text.match(new RegExp(HAN, 'gu'))?.length ?? 0;
  return han >= 2 ? text : undefined;
}

/** A clause as a question quotes it: about a dozen characters (whole Latin words), from the end nearest the answer. */
function quoteClause(clause: string, fromEnd: boolean): string {
  const chars = [...clause.replace(/[*`]/g, '').trim()];
  const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\w.]/.test(c);
  if (fromEnd) {
    let start = Math.max(0, chars.length - 12);
    while (start > 0 && isWordChar(chars[start - 1]) && isWordChar(chars[start])) start--;
    return chars.slice(start).join('').trim();
  }
  let end = Math.min(chars.length, 12);
  while (end < chars.length && isWordChar(chars[end - 1]) && isWordChar(chars[end])) end++;
  return chars.slice(0, end).join('').trim();
}

/** The clauses of a sentence: what follows a lead-in (`你說得對，讓我…`) starts a clause of its own. */
function splitClauses(sentence: string): string[] {
  return sentence
    .split(/[，,]\s*/u)
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

function readChoice(sentence: string, index: number): Fact | undefined {
  const instead = INSTEAD.exec(sentence);
  const chosen = instead?.[1] === undefined ? undefined : cleanSpan(instead[1]);
  if (instead !== null && chosen !== undefined) {
    const rejected = quoteClause(instead[2] ?? '', false);
    return { kind: 'decision', answer: chosen, index, question: `What did the assistant choose instead of "${rejected}"?`, hintSources: [sentence] };
  }
  for (const clause of splitClauses(sentence)) {
    const decided = DECIDED.exec(clause)?.[1] ?? CHOSE.exec(clause)?.[1];
    const answer = decided === undefined ? undefined : cleanSpan(decided);
    if (answer !== undefined) return { kind: 'decision', answer, index, question: 'What did the assistant decide to do?', hintSources: [sentence] };
  }
  return undefined;
}

function readReason(sentence: string, index: number): Fact | undefined {
  const label = LABELLED.exec(sentence);
  if (label !== null) {
    const answer = cleanSpan(label[2] ?? '');
    if (answer === undefined) return undefined;
    // The label is the question: English words such as `reason` stand on no line of a Chinese session.
    return { kind: 'decision', answer, index, question: `What did the assistant say under ${label[1]}?`, hintSources: [sentence] };
  }
  const fronted = FRONTED_REASON.exec(sentence);
  const trailing = fronted === null ? TRAILING_REASON.exec(sentence) : null;
  const so = fronted === null && trailing === null ? SO_REASON.exec(sentence) : null;
  const reason = fronted?.[1] ?? trailing?.[2] ?? so?.[1];
  const answer = reason === undefined ? undefined : cleanSpan(reason);
  if (answer === undefined) return undefined;
  const decided = quoteClause(fronted?.[2] ?? trailing?.[1] ?? so?.[2] ?? '', trailing !== null || so !== null);
  return { kind: 'decision', answer, index, question: `What reason did the assistant give for "${decided}"?`, hintSources: [sentence] };
}

function readNextStep(sentence: string, previous: string, index: number, calls: string): Fact | undefined {
  for (const clause of splitClauses(sentence)) {
    const next = NEXT_STEP.exec(clause)?.[1];
    const step = next ?? SETTING_OUT.exec(clause)?.[1];
    const answer = step === undefined ? undefined : cleanSpan(step);
    if (answer === undefined) continue;
    const question = next === undefined ? 'What was the assistant setting out to do?' : 'What did the assistant say it would do next?';
    return { kind: 'continuation', answer, index, question, hintSources: [sentence, previous, calls] };
  }
  return undefined;
}

/** The decision and next-step facts of an assistant's Chinese text (none when it holds no Han character). */
export function readCjkDecisionFacts(text: string, index: number, calls: string): Fact[] {
  if (!HAS_HAN.test(text)) return [];
  const sentences = splitSentences(text);
  return sentences.flatMap((sentence, i) =>
    [readChoice(sentence, index), readReason(sentence, index), readNextStep(sentence, sentences[i - 1] ?? '', index, calls)].filter(
      (f): f is Fact => f !== undefined,
    ),
  );
}
