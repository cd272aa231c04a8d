import type { ProbeAnswer } from '../metrics/types.js';
import { createRandom, deriveSeed } from '../random.js';
import { retrievalProbability, type ContextRotCurve } from '../scenario/context-rot.js';

/**
 * The reader's context-length effect on one answer (docs/probes.md "Context rot"). A correct
 * answer stays correct under rot when the reader retrieves the evidence: one uniform draw `u` per
 * probe and ask step — from the scenario's seed, the probe id and the step, never from the
 * strategy — against the curve's probability at the length the reader read (the probe call's
 * input tokens). It fails when `u` > p(length). The same draw for every strategy makes the effect
 * monotone: p falls with length, so a strategy with a shorter context at that point fails a subset
 * of the asks a longer one fails. A wrong answer stays wrong; the plain grade is never changed.
 */
export function withContextRot(answer: ProbeAnswer, curve: ContextRotCurve | undefined, seed: number): ProbeAnswer {
  if (curve === undefined || answer.unanswered === true) return answer;
  const probability = retrievalProbability(curve, answer.inputTokens);
  const read = rotDraw(seed, answer.probeId, answer.step) <= probability;
  return { ...answer, rot: { probability: round(probability), correct: answer.correct && read } };
}

/** The uniform draw in [0, 1) of one probe at one ask step, the same for every strategy of a scenario. */
export function rotDraw(seed: number, probeId: string, step: number): number {
  return createRandom(deriveSeed(seed, `context-rot:${probeId}:${step}`)).next();
}

// Four decimals, as the reports print ratios: result.json stays readable and byte-stable.
function round(value: number): number {
  return Number(value.toFixed(4));
}
