import { runLogMemo, runWeakMap } from '../memo.js';
import type { ContextMessage, Probe } from '../transcript/types.js';
import type { Tokenizer } from '../tokens/types.js';
import { READER_ANSWER_TOKENS } from '../simulator/model.js';
import { readProbe } from '../simulator/reader.js';
import { askQuestion, type ProbeCallDeps } from './ask.js';
import { gradeAnswer } from './grade.js';

/**
 * The validity filter (DESIGN.md §6, issue 25): a probe is valid at an ask point only when the
 * reader answers it correctly from `full`'s context at that point. Otherwise the answer measures
 * the reader, not what a strategy kept, and is left out of answer recall (and counted).
 *
 * In mocked runs the reader is the simulated model, a pure function of the context: its answer on
 * `full`'s context is read directly and kept per probe set, probe and step, so every strategy of
 * a scenario shares it whatever the order units run in. Live runs ask the provider (a probe call,
 * charged to the unit like its other probe calls).
 */

export type ReferenceMode = 'simulated' | 'provider';

// Per probe set: every strategy over a log shares it, kept across a corpus's logs (a flag per probe and step).
const memo = runLogMemo<object, Map<string, boolean>>();

/** Whether the reader answers `probe` correctly from `fullContext` (full's context at `step`). */
export async function isValidAt(
  mode: ReferenceMode,
  owner: object,
  deps: ProbeCallDeps,
  probe: Probe,
  fullContext: readonly ContextMessage[],
  step: number,
): Promise<boolean> {
  if (mode === 'provider') {
    const reply = await askQuestion(deps, probe, fullContext, step);
    return reply.ok && gradeAnswer(probe.expected, reply.answer).correct;
  }
  let known = memo.get(owner);
  if (known === undefined) {
    known = new Map();
    memo.set(owner, known);
  }
  const key = `${probe.id}@${step}`;
  let valid = known.get(key);
  if (valid === undefined) {
    valid = gradeAnswer(probe.expected, readSimulated(deps.tokenizer, probe, fullContext)).correct;
    known.set(key, valid);
  }
  return valid;
}

/** The simulated reader's answer to `probe` on `context` (generate.ts keeps only probes it answers on the whole log). */
export function readSimulated(tokenizer: Pick<Tokenizer, 'count'>, probe: Pick<Probe, 'id' | 'question'>, context: readonly ContextMessage[]): string {
  const question: ContextMessage = { type: 'message', id: `probe:${probe.id}`, role: 'user', text: probe.question };
  return readProbe([...context, question], { maxTokens: READER_ANSWER_TOKENS, count: countOf(tokenizer) }).answer;
}

// One count function per tokenizer: the reader keeps its answers per count function (reader.ts).
const counts = runWeakMap<Pick<Tokenizer, 'count'>, (text: string) => number>();

function countOf(tokenizer: Pick<Tokenizer, 'count'>): (text: string) => number {
  let count = counts.get(tokenizer);
  if (count === undefined) {
    count = (text) => tokenizer.count(text);
    counts.set(tokenizer, count);
  }
  return count;
}
