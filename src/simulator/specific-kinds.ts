/**
 * The three kinds of specifics whose verbatim survival a summary is measured on — the one place
 * they are defined, used on both sides of a calibration (a real summary against the history it
 * replaced, the simulated summary against the same history) and by the simulated summarizer's
 * model of loss.
 */
export type SpecificKind = 'paths' | 'numbers' | 'identifiers';
export const SPECIFIC_KINDS: readonly SpecificKind[] = ['paths', 'numbers', 'identifiers'];

/**
 * Patterns of each kind; global, so use them only through `extractSpecifics` / `findSpecifics`.
 * - paths: a relative path with a directory and an extension, or an absolute path of three or
 *   more parts (`src/a.ts`, `/home/u/p/x.tex`); not inside a URL.
 * - numbers: a run of three or more digits (`8437`, the `2024` of `Cheng2024`, the `154` and
 *   `565` of `154,565`), however it is written around.
 * - identifiers: code names with an inner capital or an underscore (`countTokens`,
 *   `custom_call`, `HarnessError`), four characters or more.
 */
const PATTERNS: Record<SpecificKind, RegExp> = {
  paths: /(?<![\w@:/.\\-])(?:(?:\.{1,2}\/|\/)?(?:[\w.-]+\/)+[\w-]+(?:\.[\w-]+)*\.[A-Za-z0-9]{1,8}\b|\/[\w.-]+\/[\w.-]+(?:\/[\w.-]+)+)/g,
  numbers: /(?<!\d)\d{3,}(?!\d)/g,
  identifiers: /(?<![\w./-])(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)(?![\w/])/g,
};

const MIN_IDENTIFIER_CHARS = 4;

/**
 * The text of a tool call in which specifics are counted: its argument values, not its keys
 * (`file_path`, `old_string` are the tool's schema, which no summary is expected to repeat) — at
 * any depth: a `TodoWrite` list or a `MultiEdit` edit list is values under keys (`activeForm`,
 * `new_string`), and written out as JSON those keys read as identifiers named in every call (128
 * times in one history), which the fit then learnt to keep.
 */
export function callArgumentText(call: { name: string; args: Record<string, unknown> }): string {
  return leafValues(call.args).join('\n');
}

function leafValues(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(leafValues);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(leafValues);
  return [];
}

export type SpecificSets = Record<SpecificKind, Set<string>>;

/**
 * What a text holds wherever a kind matches: a path has a `/`, a number three digits in a row. Most
 * texts hold neither, and testing for that is far cheaper than running the pattern.
 */
const MAY_MATCH: Record<SpecificKind, (text: string) => boolean> = {
  paths: (text) => text.includes('/'),
  numbers: (text) => /\d{3}/.test(text),
  identifiers: () => true,
};

/** The matches of one kind in a text, in order, with their offsets. */
export function findSpecifics(text: string, kind: SpecificKind): { value: string; at: number }[] {
  const found: { value: string; at: number }[] = [];
  if (!MAY_MATCH[kind](text)) return found;
  for (const match of text.matchAll(PATTERNS[kind])) {
    if (kind === 'identifiers' && match[0].length < MIN_IDENTIFIER_CHARS) continue;
    found.push({ value: match[0], at: match.index });
  }
  return found;
}

/** The distinct specifics of each kind in a text. */
export function extractSpecifics(text: string): SpecificSets {
  const sets = { paths: new Set<string>(), numbers: new Set<string>(), identifiers: new Set<string>() };
  for (const kind of SPECIFIC_KINDS) for (const { value } of findSpecifics(text, kind)) sets[kind].add(value);
  return sets;
}

/** Survival of one kind: how many of the source's distinct specifics the summary repeats verbatim. */
interface KindSurvival {
  source: number;
  kept: number;
  /** kept / source; null when the source has none. */
  share: number | null;
}

export type Survival = Record<SpecificKind, KindSurvival>;

/** Per kind, the share of the source's distinct specifics that the summary holds verbatim (as specifics of its own). */
export function measureSurvival(source: string, summary: string): Survival {
  const from = extractSpecifics(source);
  const into = extractSpecifics(summary);
  const entry = (kind: SpecificKind): KindSurvival => {
    const kept = [...from[kind]].filter((value) => into[kind].has(value)).length;
    return { source: from[kind].size, kept, share: from[kind].size === 0 ? null : kept / from[kind].size };
  };
  return { paths: entry('paths'), numbers: entry('numbers'), identifiers: entry('identifiers') };
}
