import type { ProbeAnswer, ProbeJudgement } from '../metrics/types.js';
import type { Archive } from '../strategies/types.js';
import type { ContextMessage, Probe } from '../transcript/types.js';
import { askQuestion, type ProbeCallDeps, type ProbeReply } from './ask.js';
import { gradeAnswer, type Grade } from './grade.js';
import type { MeasuredProbe } from './probe-set.js';
import { chooseRetrievalKeys, fetchArchived, retrievedMessage } from './retrieval.js';

/** Where and on what a probe is asked. */
export interface AskPoint {
  askedAt: ProbeAnswer['askedAt'];
  step: number;
  context: readonly ContextMessage[];
}

function baseAnswer(
  mp: MeasuredProbe,
  askedAt: ProbeAnswer['askedAt'],
  step: number,
): Pick<ProbeAnswer, 'probeId' | 'kind' | 'question' | 'expected' | 'askedAt' | 'step'> {
  return { probeId: mp.probe.id, kind: mp.probe.kind, question: mp.probe.question, expected: mp.expected, askedAt, step };
}

/**
 * An ask point the session never reached (it crashed first, or the step is past its end): kept in
 * the answers as `unanswered` and left out of answer recall — a crash is not a wrong answer, and
 * the crash columns already charge it; recall stays what the model got right when it was asked.
 */
export function unansweredProbe(mp: MeasuredProbe, askedAt: ProbeAnswer['askedAt'], step: number, why: string): ProbeAnswer {
  return {
    ...baseAnswer(mp, askedAt, step),
    answer: '(session ended before this point)',
    correct: false,
    reason: `not asked: ${why}`,
    retrieved: false,
    correctWithRetrieval: false,
    retrievalTokens: 0,
    inputTokens: 0,
    outputTokens: 0,
    unanswered: true,
    outcome: 'unanswered',
  };
}

function gradeReply(mp: MeasuredProbe, reply: { ok: boolean; answer: string }): Grade {
  return reply.ok ? gradeAnswer(mp.probe.expected, reply.answer) : { correct: false, reason: 'no answer: the probe call failed' };
}

/**
 * Scores an answer the model gave to a probe (the LLM judge of live runs): never throws, a failed
 * judgement is an `{error}`.
 */
export type JudgeProbeAnswer = (probe: Probe, answer: string, step: number) => Promise<ProbeJudgement>;

/**
 * Asks a probe at an ask point and grades the answer deterministically. When the reader could
 * not answer (or answered from a retrieval hint) and a hint lies next to what the question asks
 * about, it fetches the archived text and asks again with it: the second call's tokens (which
 * include the fetched text) are the retrieval's cost, reported apart from the first call's.
 * Retrieval only adds: the answer counts as correct with retrieval when the first answer or the
 * one after fetching is (a fetch that overflows the window loses nothing the context gave).
 * With `judge`, the first answer (the one `correct` grades) is then scored by the judge too; a
 * failed probe call leaves nothing to judge and is recorded as such, without a judge call.
 */
export async function answerProbe(deps: ProbeCallDeps, archive: Archive, mp: MeasuredProbe, point: AskPoint, judge?: JudgeProbeAnswer): Promise<ProbeAnswer> {
  const reply = await askQuestion(deps, mp.probe, point.context, point.step);
  const answer = await gradeWithRetrieval(deps, archive, mp, point, reply);
  if (judge === undefined) return answer;
  const judgement = reply.ok ? await judge(mp.probe, reply.answer, point.step) : { error: 'not judged: the probe call failed' };
  return { ...answer, judge: judgement };
}

async function gradeWithRetrieval(deps: ProbeCallDeps, archive: Archive, mp: MeasuredProbe, point: AskPoint, reply: ProbeReply): Promise<ProbeAnswer> {
  const grade = gradeReply(mp, reply);
  const answer: ProbeAnswer = {
    ...baseAnswer(mp, point.askedAt, point.step),
    answer: reply.answer,
    correct: grade.correct,
    reason: grade.reason,
    retrieved: false,
    correctWithRetrieval: grade.correct,
    retrievalTokens: 0,
    inputTokens: reply.inputTokens,
    outputTokens: reply.outputTokens,
  };
  if (!reply.ok) return answer;
  const fetched = fetchArchived(chooseRetrievalKeys(mp.probe.question, point.context, reply.answer), archive);
  if (fetched.length === 0) return answer;
  const second = await askQuestion(deps, mp.probe, point.context, point.step, [retrievedMessage(mp.probe.id, fetched)]);
  const secondGrade = gradeReply(mp, second);
  return {
    ...answer,
    reason: `${grade.reason}; after retrieving ${fetched.map((f) => f.key).join(', ')}: ${secondGrade.reason}`,
    retrieved: true,
    correctWithRetrieval: grade.correct || secondGrade.correct,
    retrievalTokens: second.inputTokens + second.outputTokens,
    retrievalAnswer: second.answer,
  };
}
