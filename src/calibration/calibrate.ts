import { summarizeMessages } from '../providers/simulated/summarizer.js';
import { STRUCTURED_SUMMARY_PROMPT } from '../strategies/reactive-compress.js';
import type { ContextMessage, Transcript } from '../transcript/types.js';
import { callArgumentText, measureSurvival, SPECIFIC_KINDS, type SpecificKind, type Survival } from '../providers/simulated/specific-kinds.js';

/**
 * Calibration of the simulated summarizer on real compactions: for each compaction an agent
 * logged with its summary (the canonical `compaction` event: Claude Code `isCompactSummary`,
 * Codex `compacted`, …), the history it replaced is summarized by the simulated model at the
 * real summary's size, and the verbatim survival of paths, numbers and identifiers
 * (specific-kinds.ts) is measured on both summaries against that same history.
 */

/** Prompt of the replay: Claude Code and Codex compact into a sectioned, structured summary. */
const CALIBRATION_PROMPT = STRUCTURED_SUMMARY_PROMPT;

interface KindCalibration {
  kind: SpecificKind;
  /** Distinct specifics of this kind in the replaced history. */
  source: number;
  real: number | null;
  simulated: number | null;
  /** simulated / real; null when either is undefined or real is 0. */
  ratio: number | null;
}

export interface CompactionCalibration {
  file: string;
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

/** Calibrates the simulated summarizer on every compaction of one transcript. */
export function calibrateTranscript(transcript: Transcript, count: (text: string) => number): CompactionCalibration[] {
  return findCompactions(transcript).map(({ id, summary, history }) => {
    const summaryTokens = count(summary);
    const simulated = summarizeMessages(history, { budgetTokens: summaryTokens, count, prompt: CALIBRATION_PROMPT });
    const source = historyText(history);
    const real = measureSurvival(source, summary);
    const sim = measureSurvival(source, simulated);
    return {
      file: transcript.file,
      compactionId: id,
      historyMessages: history.length,
      historyTokens: count(source),
      summaryTokens,
      simulatedTokens: count(simulated),
      kinds: SPECIFIC_KINDS.map((kind) => compareKind(kind, real, sim)),
    };
  });
}

function compareKind(kind: SpecificKind, real: Survival, sim: Survival): KindCalibration {
  const r = real[kind].share;
  const s = sim[kind].share;
  return { kind, source: real[kind].source, real: r, simulated: s, ratio: r === null || s === null || r === 0 ? null : s / r };
}
