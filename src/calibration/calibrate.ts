import { summarizeMessages } from '../simulator/summarizer.js';
import { STRUCTURED_SUMMARY_PROMPT } from '../strategies/reactive-compress.js';
import type { ContextMessage, Transcript } from '../transcript/types.js';
import { callArgumentText, measureSurvival, SPECIFIC_KINDS, type SpecificKind, type Survival } from '../simulator/specific-kinds.js';
import type { SummarizerFit } from '../simulator/summary-fit.js';

/**
 * Calibration of the simulated summarizer on real compactions: for each compaction an agent
 * logged with its summary (the canonical `compaction` event: Claude Code `isCompactSummary`,
 * Codex `compacted`, …), the history it replaced is summarized by the simulated model with no
 * budget below the history's own size — its length is the one the fit predicts for that history —
 * and the verbatim survival of paths, numbers and identifiers (specific-kinds.ts) is measured on
 * both summaries against that same history.
 */

/** Prompt of the replay: Claude Code and Codex compact into a sectioned, structured summary. */
const CALIBRATION_PROMPT = STRUCTURED_SUMMARY_PROMPT;

interface KindCalibration {
  kind: SpecificKind;
  /** Distinct specifics of this kind in the replaced history. */
  source: number;
  /** How many of them each summary repeats verbatim. */
  realKept: number;
  simulatedKept: number;
  real: number | null;
  simulated: number | null;
  /** simulated / real; null when either is undefined or real is 0. */
  ratio: number | null;
}

export interface CompactionCalibration {
  file: string;
  /** Whose logs these are (load.ts): the unit a leave-one-author-out fit holds out. */
  author: string;
  compactionId: string;
  /** Messages of the history the compaction replaced. */
  historyMessages: number;
  historyTokens: number;
  summaryTokens: number;
  simulatedTokens: number;
  kinds: KindCalibration[];
}

/** The compactions of a transcript that carry a summary, each with the history it replaced. */
export function findCompactions(transcript: Transcript): { id: string; summary: string; history: ContextMessage[] }[] {
  const found: { id: string; summary: string; history: ContextMessage[] }[] = [];
  let history: ContextMessage[] = [];
  for (const event of transcript.events) {
    if (event.type === 'message') history.push(event);
    if (event.type !== 'compaction' || event.summary === undefined || event.summary.trim() === '') continue;
    found.push({ id: event.id, summary: event.summary, history });
    // What follows builds on the summary, as the agent's next context did.
    history = [{ type: 'message', id: `${event.id}:summary`, role: 'user', text: event.summary }];
  }
  return found;
}

/** The text a history's specifics are counted in: message texts and tool-call arguments (thinking is not part of the record). */
function historyText(messages: readonly ContextMessage[]): string {
  return messages.map((m) => [m.text, ...(m.toolCalls ?? []).map(callArgumentText)].join('\n')).join('\n');
}

/** One compaction to calibrate on: where it comes from, what it replaced, the real summary. */
export interface FoundCompaction {
  file: string;
  author: string;
  id: string;
  summary: string;
  history: ContextMessage[];
  count: (text: string) => number;
}

/** Replays one real compaction through the simulated summarizer under `fit`, and compares the two summaries. */
export function calibrateCompaction(found: FoundCompaction, fit?: SummarizerFit): CompactionCalibration {
  const { history, summary, count } = found;
  const source = historyText(history);
  const historyTokens = count(source);
  const summaryTokens = count(summary);
  // No budget below the history's size: the simulated model writes the length its fit predicts.
  const simulated = summarizeMessages(history, { budgetTokens: historyTokens, count, prompt: CALIBRATION_PROMPT, ...(fit === undefined ? {} : { fit }) });
  const real = measureSurvival(source, summary);
  const sim = measureSurvival(source, simulated);
  return {
    file: found.file,
    author: found.author,
    compactionId: found.id,
    historyMessages: history.length,
    historyTokens,
    summaryTokens,
    simulatedTokens: count(simulated),
    kinds: SPECIFIC_KINDS.map((kind) => compareKind(kind, real, sim)),
  };
}

/** Calibrates the simulated summarizer (the shipped fit) on every compaction of one transcript. */
export function calibrateTranscript(transcript: Transcript, count: (text: string) => number): CompactionCalibration[] {
  return findCompactions(transcript).map((c) => calibrateCompaction({ ...c, file: transcript.file, author: '', count }));
}

function compareKind(kind: SpecificKind, real: Survival, sim: Survival): KindCalibration {
  const r = real[kind].share;
  const s = sim[kind].share;
  return {
    kind,
    source: real[kind].source,
    realKept: real[kind].kept,
    simulatedKept: sim[kind].kept,
    real: r,
    simulated: s,
    ratio: r === null || s === null || r === 0 ? null : s / r,
  };
}
