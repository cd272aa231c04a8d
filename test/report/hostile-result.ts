import type { ProbeAnswer, RunResult, UnitResult } from '../../src/metrics/types.js';
import { buildRunResult } from './run-result.js';

/** Markup an attacker could plant in a transcript, a tool output or a model's answer. */
export const SCRIPT = '<script>window.__pwned = 1</script>';
export const IMAGE = '"><img src=x onerror="window.__pwned = 1">';
export const CLOSE = '</script><script>window.__pwned = 1</script>';

/**
 * The hand-built run with hostile text wherever text comes from outside the harness: strategy
 * labels, scenario names and descriptions, event reasons and details, crash messages, probe
 * questions, expectations and answers, threshold labels.
 */
export function buildHostileResult(): RunResult {
  const result = buildRunResult();
  const scenario = `long ${SCRIPT}`;
  const info = result.scenarios[0];
  if (info !== undefined) {
    result.scenarios[0] = { ...info, name: scenario, description: `described ${IMAGE}`, model: `m${IMAGE}`, file: `f${CLOSE}` };
  }
  result.units = result.units.map((unit, index) => poison(unit, index, scenario));
  return result;
}

function poison(unit: UnitResult, index: number, scenario: string): UnitResult {
  const strategy = index === 0 ? `full${IMAGE}` : `rolling ${SCRIPT}`;
  const events = unit.events.map((event) => {
    if (event.type === 'action') return { ...event, reason: `why ${SCRIPT}`, detail: `detail ${IMAGE}`, mode: `mode${CLOSE}` };
    if (event.type === 'crash') return { ...event, message: `crash ${IMAGE}` };
    return event;
  });
  const answer: ProbeAnswer = {
    probeId: `p1${IMAGE}`,
    kind: 'recall',
    question: `What is ${SCRIPT}?`,
    expected: `expected ${IMAGE}`,
    askedAt: 'end',
    step: 2,
    answer: `answer ${CLOSE}`,
    correct: index === 1,
    reason: `graded ${IMAGE}`,
    retrieved: false,
    correctWithRetrieval: false,
    retrievalTokens: 0,
    inputTokens: 100,
    outputTokens: 10,
  };
  return {
    ...unit,
    scenario,
    strategy,
    summary: { ...unit.summary, scenario, strategy, crash_kind: unit.summary.crashed ? 'overflow' : null, answer_recall: index === 1 ? 1 : 0 },
    events,
    thresholds: [{ label: `trigger ${SCRIPT}`, tokens: 6000 }],
    probes: {
      answers: [answer],
      retention: [
        {
          probeId: answer.probeId,
          kind: 'recall',
          points: [
            [0, 1],
            [1, 1],
            [2, index === 1 ? 1 : 0],
          ],
        },
      ],
      recall: { withoutRetrieval: index === 1 ? 1 : 0, withRetrieval: null, retrievalTokens: 0, probeTokens: 110 },
      byKind: { recall: { retention: 1, answerRecall: index === 1 ? 1 : 0, count: 1, unanswered: 0 } },
      specifics: { paths: null, commands: null, numbers: null },
    },
  };
}
