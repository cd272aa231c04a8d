/**
 * Validation of a task's result summary before its raw log is evicted: the summary is all that
 * stays in the context, so it must say something (a minimum length) and must speak to the task's
 * acceptance criteria when the task has any.
 */
export interface SummaryVerdict {
  passed: boolean;
  /** Characters of the summary (trimmed). */
  chars: number;
  /** Criteria the summary does not mention. */
  missing: string[];
  /** One line for the tombstone, e.g. `Summary check: passed (81 characters; 2/2 criteria mentioned).` */
  line: string;
}

// Words too common to show that a criterion was addressed.
const STOPWORDS = new Set([
  'with',
  'that',
  'this',
  'from',
  'have',
  'been',
  'when',
  'then',
  'than',
  'into',
  'they',
  'them',
  'their',
  'there',
  'which',
  'should',
  'must',
  'does',
  'also',
  'only',
  'each',
  'every',
  'still',
  'were',
  'will',
  'what',
]);
// Words match on their first characters, so that `passes` matches `pass` and `tests` matches `test`.
const STEM = 4;

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9_./-]+/g) ?? [];
}

function significantWords(text: string): string[] {
  return wordsOf(text).filter((w) => w.length >= STEM && !STOPWORDS.has(w));
}

/**
 * Whether a summary mentions a criterion: it contains the criterion outright, or at least two
 * thirds of the criterion's significant words (4+ letters, not a stopword), compared on their
 * first four characters. Lexical on purpose: deterministic, and what a reader scanning the
 * summary would see.
 */
function isCriterionMentioned(summary: string, criterion: string): boolean {
  const lower = summary.toLowerCase();
  if (lower.includes(criterion.toLowerCase().trim())) return true;
  const wanted = significantWords(criterion);
  if (wanted.length === 0) return false;
  const stems = new Set(wordsOf(summary).map((w) => w.slice(0, STEM)));
  const found = wanted.filter((w) => stems.has(w.slice(0, STEM))).length;
  return found >= Math.ceil((wanted.length * 2) / 3);
}

/** Checks a result summary: at least `minChars` characters, and every criterion mentioned. */
export function checkResultSummary(summary: string | undefined, criteria: readonly string[] | undefined, minChars: number): SummaryVerdict {
  const text = (summary ?? '').trim();
  const missing = (criteria ?? []).filter((c) => !isCriterionMentioned(text, c));
  const tooShort = text.length < minChars;
  const passed = !tooShort && missing.length === 0;
  const criteriaNote = criteria !== undefined && criteria.length > 0 ? `; ${criteria.length - missing.length}/${criteria.length} criteria mentioned` : '';
  const problems = [
    ...(tooShort ? [`too short (${text.length} < ${minChars} characters)`] : []),
    ...(missing.length > 0 ? [`criteria not mentioned: ${missing.map((c) => `"${c}"`).join(', ')}`] : []),
  ];
  const line = passed
    ? `Summary check: passed (${text.length} characters${criteriaNote}).`
    : `Summary check: FAILED — ${problems.join('; ')}. Retrieve the archived log before relying on this summary.`;
  return { passed, chars: text.length, missing, line };
}
