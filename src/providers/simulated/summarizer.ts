import type { ContextMessage } from '../../transcript/types.js';
import { trimToTokens } from './terms.js';

export interface SummaryOptions {
  /** The summary never exceeds this many tokens (as `count` measures them). */
  budgetTokens: number;
  count: (text: string) => number;
  /** Longest single line kept, in tokens (default 60); longer lines are cut. */
  maxLineTokens?: number;
}

interface Candidate {
  text: string;
  /** Position in the context, for chronological output. */
  order: number;
  salience: number;
  cost: number;
}

/** What makes a line worth keeping, and how much: the facts agents lose in compaction. */
const SALIENCE: ReadonlyArray<{ weight: number; pattern: RegExp }> = [
  // File paths: a slash-separated path or a name with a source-file extension.
  { weight: 3, pattern: /(?:^|[\s'"`(=])\.{0,2}\/?[\w.-]+\/[\w./-]+|\b[\w-]+\.(?:[cm]?[jt]sx?|py|rs|go|java|rb|json|ya?ml|toml|md|txt|css|html|sh|sql|lock|cfg|ini|c|h|cpp)\b/ },
  // Commands: a shell prompt or a well-known tool at a word start.
  { weight: 3, pattern: /^\s*[$>]\s|\b(?:npm|npx|yarn|pnpm|git|node|python3?|pip|cargo|make|docker|kubectl|curl|grep|sed|mkdir|pytest|vitest|jest|tsc|go (?:test|build|run))\s/ },
  // Errors and failures.
  { weight: 3, pattern: /\b(?:error|errors|failed|failure|failing|fails|exception|traceback|panic|fatal|ENOENT|EACCES|\w+Error|cannot|can't)\b/i },
  // Decisions and their reasons.
  { weight: 3, pattern: /\b(?:decided|decide|decision|will use|we'll use|going with|chose|choose|because|instead of|agreed|plan is|must not|never)\b/i },
  // Identifiers: code spans, camelCase, snake_case.
  { weight: 2, pattern: /`[^`]+`|\b[a-z]+[A-Z]\w*\b|\b[a-zA-Z]+_\w+\b/ },
  // Numbers (ports, versions, counts, limits).
  { weight: 1, pattern: /\b\d+(?:\.\d+)*\b/ },
];

/** Salience of one line: the sum of the weights of the patterns it matches. */
export function scoreSalience(line: string): number {
  return SALIENCE.reduce((sum, { weight, pattern }) => sum + (pattern.test(line) ? weight : 0), 0);
}

/**
 * A deterministic extractive summary: the messages' lines (tool calls as `$ command` or
 * `name {args}`), de-duplicated, picked by salience (ties to the more recent line), written back in
 * their original order, one per line. It never exceeds `budgetTokens`.
 */
export function summarizeMessages(messages: readonly ContextMessage[], options: SummaryOptions): string {
  const candidates = collectCandidates(messages, options);
  const byPriority = [...candidates].sort((a, b) => b.salience - a.salience || b.order - a.order);
  const chosen: Candidate[] = [];
  let used = 0;
  for (const candidate of byPriority) {
    if (used + candidate.cost > options.budgetTokens) continue;
    chosen.push(candidate);
    used += candidate.cost;
  }
  // The per-line costs are an estimate of the joined text; drop the least salient until it fits.
  let summary = render(chosen);
  while (chosen.length > 0 && options.count(summary) > options.budgetTokens) {
    chosen.pop();
    summary = render(chosen);
  }
  return summary;
}

function render(chosen: readonly Candidate[]): string {
  return [...chosen].sort((a, b) => a.order - b.order).map((candidate) => candidate.text).join('\n');
}

function collectCandidates(messages: readonly ContextMessage[], options: SummaryOptions): Candidate[] {
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  const maxLine = options.maxLineTokens ?? 60;
  for (const { line, bonus } of messages.flatMap(linesOf)) {
    const key = line.toLowerCase().replace(/\s+/g, ' ');
    if (seen.has(key)) continue;
    seen.add(key);
    const text = trimToTokens(line, maxLine, options.count);
    if (text === '') continue;
    candidates.push({ text, order: candidates.length, salience: scoreSalience(line) + bonus, cost: options.count(text) + 1 });
  }
  return candidates;
}

/** The user's own words state the task and its constraints: they outrank tool output of equal salience. */
const USER_BONUS = 2;

function linesOf(message: ContextMessage): Array<{ line: string; bonus: number }> {
  const calls = (message.toolCalls ?? []).map((call) => {
    const command = call.args['command'] ?? call.args['cmd'];
    return typeof command === 'string' ? `$ ${command}` : `${call.name} ${JSON.stringify(call.args)}`;
  });
  const lines = [...message.text.split(/\r?\n/), ...calls];
  const bonus = message.role === 'user' ? USER_BONUS : 0;
  return lines
    .map((line) => line.trim())
    .filter((line) => /[\p{L}\p{N}]/u.test(line))
    .map((line) => ({ line, bonus }));
}
