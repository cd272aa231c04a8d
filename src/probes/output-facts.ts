import type { Fact } from './fact.js';
import { capText } from './fact.js';
import { findPathsInText } from './message-text.js';

/**
 * Facts in the text of a tool result: file paths it listed, numbers and identifiers it showed
 * (ports, versions, counts, hashes), error lines, and tests still failing.
 */

interface NumberRule {
  pattern: RegExp;
  /** Capture group of the value. */
  group: number;
  label: (match: RegExpMatchArray) => string;
}

/** `number of passed tests`, `number of files changed`, `number of warnings`. */
function describeCount(word: string): string {
  if (word === 'passed' || word === 'failed' || word === 'skipped') return `number of ${word} tests`;
  return `number of ${/s$|changed$/.test(word) ? word : `${word}s`}`;
}

// Versions, hashes, UUIDs and dates are left out: in tool output they are mostly trivia (a dependency
// listing's versions, a session id or a piece of one, a timestamp) that no continuing agent needs (issue 25).
const NUMBER_RULES: readonly NumberRule[] = [
  { pattern: /\bport\s*[:=]?\s*(\d{2,5})\b/gi, group: 1, label: () => 'port' },
  { pattern: /(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::\]):(\d{2,5})\b/g, group: 1, label: () => 'port' },
  {
    pattern:
      /\b(\d+)\s+(passed|failed|errors?|warnings?|skipped|tests?|files? changed|insertions?|deletions?|vulnerabilities|packages?|lines total|matches)\b/gi,
    group: 1,
    label: (m) => describeCount((m[2] ?? 'items').toLowerCase()),
  },
];

// An exception or error line with its message: `KeyError: 'X'`, `Error: connect ECONNREFUSED`,
// `error TS2322: …`, `fatal: not a git repository`, `npm ERR! code E404`.
// A list marker or a linter code may come first: `- E999 IndentationError: unexpected indent`.
const ERROR_LINE =
  /^\s*(?:E\s{2,}|[-*•]\s+(?:[A-Z]\d{3,4}\s+)?)?((?:[\w.]*(?:Error|Exception)|ERROR|[Ee]rror(?:\[\w+\])?(?:\s+TS\d+)?|fatal|FATAL)\s*:\s*\S.*|npm ERR!.*\S)\s*$/;
// A shell's own error: `setup.sh: line 2: $'\r': command not found`, `cat: x: No such file or directory`.
const SHELL_ERROR_LINE = /^\s*(\S.*?:\s*(?:command not found|No such file or directory|Permission denied|not a git repository\b.*))\s*$/;
// `FAILED tests/x.py::test_y - AssertionError`, `FAIL src/a.test.ts > suite > case`, `✗ case`.
const FAILED_TEST = /^\s*(?:FAILED|FAIL|✗|×)\s+(\S+)/;

// `Key: value` and `key = value` lines (settings, status, `ipconfig`, JSON fields): the value an
// observation stated under a name. The dotted leaders of Windows tools (`Address. . . :`) are allowed.
const KEY_VALUE = /^\s*(?:[-*]\s+)?["']?([A-Za-z][A-Za-z0-9 _-]{2,40}?)["']?(?:\s*\.)*\s*[:=]\s+["']?([^\s"',{[][^"']{1,58}?)["']?,?\s*$/;
// Values that are trivia: times and dates, durations, sizes, booleans and nulls, bare small numbers.
const TRIVIAL_VALUE =
  /^(?:\d{4}-\d{2}-\d{2}.*|\d{1,2}:\d{2}.*|\w{3} \d{1,2} .*|[\d.]+\s*(?:ms|s|sec|seconds|min|[kmgt]i?b|bytes?|%)|true|false|null|none|nil|undefined|yes|no|\d{1,2}|[\W_]+)$/i;

// Per message, so that one long log cannot crowd out the rest of the session.
// Every candidate must still lead to its own line (findable.ts), so a listing yields a few.
const MAX_PER_MESSAGE = { paths: 4, numbers: 4, errors: 2, failing: 2, values: 3 } as const;

function readNumberFacts(lines: readonly string[], whole: () => string, index: number, source: string): Fact[] {
  const facts: Fact[] = [];
  for (const line of lines) {
    // Every rule's value is digits.
    if (!/\d/.test(line)) continue;
    for (const rule of NUMBER_RULES) {
      for (const match of line.matchAll(rule.pattern)) {
        const answer = match[rule.group];
        // A hash inside a UUID already taken, a count repeated on the next line: one probe each.
        if (answer === undefined || facts.some((f) => f.answer.includes(answer))) continue;
        const question = `What ${rule.label(match)} did ${source} say?`;
        facts.push({ kind: 'recall', answer, index, question, hintSources: [line.replace(answer, ' '), whole()] });
        if (facts.length >= MAX_PER_MESSAGE.numbers) return facts;
      }
    }
  }
  return facts;
}

function readKeyValueFacts(lines: readonly string[], whole: () => string, index: number, source: string): Fact[] {
  const facts: Fact[] = [];
  for (const line of lines) {
    const match = KEY_VALUE.exec(line);
    const key = match?.[1]?.trim();
    const value = match?.[2]?.trim();
    if (key === undefined || value === undefined || value.length < 3 || TRIVIAL_VALUE.test(value)) continue;
    if (!/[a-z]{3}/i.test(key) || facts.some((f) => f.answer === value)) continue;
    const question = `What ${key} did ${source} show?`;
    facts.push({ kind: 'recall', answer: value, index, question, hintSources: [line.replace(value, ' '), whole()] });
    if (facts.length >= MAX_PER_MESSAGE.values) break;
  }
  return facts;
}

function readErrorFacts(lines: readonly string[], whole: () => string, index: number, source: string): Fact[] {
  const facts: Fact[] = [];
  lines.forEach((line, i) => {
    const value = (ERROR_LINE.exec(line) ?? SHELL_ERROR_LINE.exec(line))?.[1]?.trim();
    if (value === undefined || value.length < 10 || facts.length >= MAX_PER_MESSAGE.errors) return;
    const answer = capText(value, 80);
    if (facts.some((f) => f.answer === answer)) return;
    const around = lines
      .slice(Math.max(0, i - 3), i + 3)
      .filter((l) => l !== line)
      .join('\n');
    facts.push({ kind: 'recall', answer, index, question: `What error did ${source} say?`, hintSources: [around, whole()] });
  });
  return facts;
}

function readFailingFacts(lines: readonly string[], whole: () => string, index: number, source: string): Fact[] {
  const facts: Fact[] = [];
  for (const line of lines) {
    const test = FAILED_TEST.exec(line)?.[1];
    if (test === undefined || test.length < 4 || facts.some((f) => f.answer === test)) continue;
    const question = `Which case did ${source} report as still failing?`;
    facts.push({ kind: 'continuation', answer: test, index, question, hintSources: [line.replace(test, ' '), whole()] });
    if (facts.length >= MAX_PER_MESSAGE.failing) break;
  }
  return facts;
}

function readListedPaths(text: string, lines: readonly string[], index: number, source: string): Fact[] {
  const paths = [...new Set(findPathsInText(text))].slice(0, MAX_PER_MESSAGE.paths);
  return paths.map((answer) => {
    const line = lines.find((l) => l.includes(answer)) ?? '';
    return {
      kind: 'artifact',
      answer,
      index,
      question: `Which file did ${source} mention?`,
      hintSources: [line.replace(answer, ' '), text],
      isStructured: true,
    };
  });
}

/** The facts of one tool result; `source` names it in questions (fact.ts `describeOutput`). */
export function readOutputFacts(text: string, index: number, source: string): Fact[] {
  // Output a tool recorded as a JSON string (Codex) has its lines as `\\n`, or `\\r\\n`.
  const lines = text.split(/\r?\n|(?:\\r)?\\n/);
  // The lines joined, a hint source of every fact read from them: joined once, when a fact needs it.
  let joined: string | undefined;
  const whole = (): string => (joined ??= lines.join('\n'));
  // Failing tests first: a failing test id contains a path, and the continuation is the better probe.
  return [
    ...readFailingFacts(lines, whole, index, source),
    ...readErrorFacts(lines, whole, index, source),
    ...readNumberFacts(lines, whole, index, source),
    ...readKeyValueFacts(lines, whole, index, source),
    ...readListedPaths(text, lines, index, source),
  ];
}
