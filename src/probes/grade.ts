import type { ProbeExpectation } from '../transcript/types.js';

/** The verdict of a deterministic grader, with a reason a report can show. */
export interface Grade {
  correct: boolean;
  reason: string;
}

// Straight, smart, angle and CJK corner quotes and backticks: models quote values in any of these.
const QUOTES = /["'`\u2018\u2019\u201A\u201B\u201C\u201D\u201E\u201F\u00AB\u00BB\u2039\u203A\u300C-\u300F\u301D\u301E]/g;

// Chinese and Japanese (and Korean) letters; a text without any is normalised on the fast path.
const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
const WIDE = /[\u2e80-\uffef]/;
const FULLWIDTH = /[\uff01-\uff5e\u3000]/g;
const SPACE_BY_CJK = new RegExp(`(?<=[${CJK}])\\s+|\\s+(?=[${CJK}])`, 'gu');

/**
 * CJK text as matching reads it: fullwidth letters, digits and punctuation as their ASCII forms
 * (`：` as `:`), the ideographic space as a space, and no space beside a CJK character — CJK
 * writing has no word spaces, so `修改 go.mod 文件` and `修改go.mod文件` say the same.
 */
function normaliseCjk(text: string): string {
  if (!WIDE.test(text)) return text;
  return text.replace(FULLWIDTH, (c) => (c === '\u3000' ? ' ' : String.fromCharCode(c.charCodeAt(0) - 0xfee0))).replace(SPACE_BY_CJK, '');
}

/**
 * Normalises a text for matching: lower case, JSON escapes of quotes and backslashes undone (a
 * tool call's arguments are read as JSON: `findstr \"Default Gateway\"`), `\` as `/`, no quotes
 * or backticks, no leading `./` on paths, whitespace collapsed, CJK text without word spaces and
 * fullwidth forms (`normaliseCjk`), no trailing punctuation (`。` and `、` too). Applied to both
 * sides of every match.
 */
export function normaliseAnswer(text: string): string {
  let normalised = normaliseCjk(text.toLowerCase());
  // Each step only where it can change something: a text is read once per step that runs.
  if (normalised.includes('\\')) normalised = normalised.replace(ESCAPED_QUOTE, '$1').replace(BACKSLASH, '/');
  normalised = normalised.replace(QUOTES, '');
  if (normalised.includes('./')) normalised = normalised.replace(LEADING_DOT_SLASH, '$1');
  // Runs of whitespace as one space: a single space is left as it is (the text is not copied for it).
  normalised = normalised.replace(SPACE_RUN, ' ').trim();
  return TRAILING_PUNCTUATION.test(normalised.charAt(normalised.length - 1)) ? normalised.replace(TRAILING_RUN, '') : normalised;
}

// As constants: a regular expression literal in a function body is a new object each time it is
// evaluated (every text matched is normalised). `replace` starts a global one at 0 and leaves it there.
const ESCAPED_QUOTE = /\\(["'\\])/g;
const BACKSLASH = /\\/g;
const LEADING_DOT_SLASH = /(^|[\s(=:])\.\//g;
const SPACE_RUN = /\s{2,}|[^\S ]/g;
const TRAILING_RUN = /[\s.,;:!?\u3001\u3002]+$/;

const TRAILING_PUNCTUATION = /^[\s.,;:!?\u3001\u3002]$/;

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}

/**
 * Where `needle` first occurs in `haystack` at or after `from` (both already normalised), or -1.
 * A number must not be part of a longer number: `80` is not found in `8080`, nor `3` in `13 passed`.
 */
export function indexOfNormalised(haystack: string, needle: string, from = 0): number {
  if (needle === '') return -1;
  const guardStart = isDigit(needle[0]);
  const guardEnd = isDigit(needle[needle.length - 1]);
  for (let at = haystack.indexOf(needle, from); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const clashesBefore = guardStart && isDigit(haystack[at - 1]);
    const clashesAfter = guardEnd && isDigit(haystack[at + needle.length]);
    if (!clashesBefore && !clashesAfter) return at;
  }
  return -1;
}

/** Whether `needle` occurs in `haystack` (both already normalised); see `indexOfNormalised`. */
export function containsNormalised(haystack: string, needle: string): boolean {
  return indexOfNormalised(haystack, needle) >= 0;
}

// Phrasings of "this is not in the session", matched on the normalised answer (no apostrophes).
const ABSENCE_PATTERNS: readonly RegExp[] = [
  /\bnot (?:found|present|mentioned|stated|specified|given|provided|available|recorded|shown|included|known)\b/,
  /\b(?:(?:is|was|are|were) not|isnt|wasnt|arent|werent) (?:in|part of|anywhere in|contained in|mentioned)\b/,
  /\bnot (?:in|part of) (?:the|this|our) (?:session|conversation|transcript|context|history|chat|log)\b/,
  /\b(?:does not|doesnt|did not|didnt|do not|dont) (?:appear|come up|show up|occur|mention|say|contain|include)\b/,
  /\b(?:never|no) (?:mention|mentioned|record|information|info|evidence|reference|indication|such)\b/,
  /\b(?:cannot|cant|can not|could not|couldnt|unable to) (?:find|locate|determine|tell|see|answer)\b/,
  /\b(?:do not|dont) know\b/,
  /\bunknown\b/,
];

/** Signs that an answer asserts a concrete value: a number, a path or file name, a quoted or code span. */
const VALUE_PATTERNS: readonly RegExp[] = [
  /[\w.:/-]*\d[\w.:/-]*/,
  /`[^`]+`/,
  /"[^"\n]+"|\u201C[^\u201D\n]+\u201D/,
  /[\w.-]+[/\\][\w.-]+/,
  /\b[\w-]+\.[a-z][a-z0-9]{1,4}\b/i,
];

function gradeNotInSession(answer: string): Grade {
  const text = normaliseAnswer(answer);
  if (!ABSENCE_PATTERNS.some((p) => p.test(text))) {
    return { correct: false, reason: 'does not say the fact is absent from the session' };
  }
  const value = VALUE_PATTERNS.map((p) => p.exec(answer)?.[0]).find((m) => m !== undefined);
  if (value !== undefined) return { correct: false, reason: `says absent but asserts a value: ${value}` };
  return { correct: true, reason: 'says the fact is not in the session' };
}

/** Whether an answer says the fact is not in the session, and asserts no value (a reader's "not found"). */
export function isAbsenceAnswer(answer: string): boolean {
  return gradeNotInSession(answer).correct;
}

function gradeAnyOf(text: string, anyOf: readonly string[]): Grade {
  const hit = anyOf.find((s) => containsNormalised(text, normaliseAnswer(s)));
  if (hit !== undefined) return { correct: true, reason: `contains "${hit}"` };
  return { correct: false, reason: `contains none of ${anyOf.map((s) => `"${s}"`).join(', ')}` };
}

function gradeAllOf(text: string, allOf: readonly string[]): Grade {
  const missing = allOf.filter((s) => !containsNormalised(text, normaliseAnswer(s)));
  if (missing.length === 0) return { correct: true, reason: `contains all of ${allOf.length}` };
  return { correct: false, reason: `misses ${missing.map((s) => `"${s}"`).join(', ')}` };
}

function gradeRegex(answer: string, text: string, source: string): Grade {
  let pattern: RegExp;
  try {
    pattern = new RegExp(source, 'i');
  } catch {
    return { correct: false, reason: `invalid regex /${source}/` };
  }
  // The raw answer keeps what a pattern may rely on (quotes, `\`); the normalised one forgives spacing.
  if (pattern.test(answer) || pattern.test(text)) return { correct: true, reason: `matches /${source}/` };
  return { correct: false, reason: `does not match /${source}/` };
}

/**
 * Grades an answer deterministically against the ground truth. `notInSession` stands alone;
 * otherwise every criterion given (anyOf, allOf, regex) must hold.
 */
export function gradeAnswer(expected: ProbeExpectation, answer: string): Grade {
  if (expected.notInSession === true) return gradeNotInSession(answer);
  const text = normaliseAnswer(answer);
  const grades: Grade[] = [];
  if (expected.anyOf !== undefined) grades.push(gradeAnyOf(text, expected.anyOf));
  if (expected.allOf !== undefined) grades.push(gradeAllOf(text, expected.allOf));
  if (expected.regex !== undefined) grades.push(gradeRegex(answer, text, expected.regex));
  if (grades.length === 0) return { correct: false, reason: 'no ground truth to grade against' };
  return { correct: grades.every((g) => g.correct), reason: grades.map((g) => g.reason).join('; ') };
}
