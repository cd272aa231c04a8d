import type { RunEvent, StepRecord } from '../../src/metrics/run-events.js';
import { applySavingVsFull, summarizeUnit } from '../../src/metrics/summarize.js';
import { stepRecord } from '../helpers/records.js';
import { RESULT_SCHEMA_VERSION, type ProbeAnswer, type RunResult, type UnitProbeResult, type UnitResult } from '../../src/metrics/types.js';

/**
 * A small hand-built run: `full` overflows at step 2, `rolling-window` compacts and finishes, with
 * a trigger threshold and two probes asked at the end.
 */
export function buildRunResult(): RunResult {
  const units = [fullUnit(), rollingUnit()];
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    tool: { name: 'ctxbench', version: '0.1.0' },
    seed: 42,
    mode: 'mock',
    scenarios: [
      {
        name: 'long-session',
        file: 'scenarios/long-session.yaml',
        transcript: 'fixtures/transcripts/long-session.ctx.jsonl',
        provider: 'gemini',
        model: 'gemini-2.5-flash',
        window: 8000,
        tpm: 250_000,
        steps: 3,
        seed: 42,
        skippedLines: 0,
      },
    ],
    units: applySavingVsFull(units),
  };
}

function record(step: number, prompt: number, overrides: Partial<StepRecord> = {}): StepRecord {
  return stepRecord(step, prompt, {
    messageId: `a${step}`,
    atMs: step * 4600,
    completionTokens: 120,
    contextMessages: 2 + step * 2,
    cachedPrefixTokens: step === 0 ? 0 : Math.max(0, prompt - 900),
    ...overrides,
  });
}

function unit(
  strategy: string,
  steps: StepRecord[],
  events: RunEvent[],
  probes?: { retention: number; answerRecall: number; count: number; unanswered: number },
): UnitResult {
  const summary = summarizeUnit({ scenario: 'long-session', strategy, totalSteps: 3, steps, events, ...(probes ? { probes } : {}) });
  return { scenario: 'long-session', strategy, options: {}, summary, steps, events };
}

function fullUnit(): UnitResult {
  const steps = [record(0, 3000), record(1, 6100), record(2, 0, { contextTokens: 9300, completionTokens: 0, status: 'crashed', failure: 'overflow' })];
  const events: RunEvent[] = [
    {
      type: 'failure',
      step: 2,
      atMs: 9200,
      attempt: 0,
      failure: { kind: 'overflow', message: 'The input token count (9300) exceeds the maximum number of tokens allowed (8000)' },
    },
    { type: 'crash', step: 2, atMs: 9200, kind: 'overflow', message: 'The input token count (9300) exceeds the maximum number of tokens allowed (8000)' },
  ];
  return unit('full', steps, events);
}

function rollingUnit(): UnitResult {
  const steps = [record(0, 3000), record(1, 3000, { rateLimitHits: 1, waitMs: 1500, retries: 1 }), record(2, 3100, { overheadTokens: 700 })];
  const events: RunEvent[] = [
    { type: 'failure', step: 1, atMs: 4600, attempt: 0, failure: { kind: 'rate-limit', message: 'Resource exhausted', retryAfterMs: 1500 } },
    { type: 'wait', step: 1, atMs: 4600, ms: 1500, reason: 'rate-limit' },
    { type: 'call', step: 2, atMs: 9200, purpose: 'summary', inputTokens: 600, outputTokens: 100, ok: true },
    {
      type: 'action',
      step: 2,
      atMs: 9200,
      action: 'compact',
      reason: 'over 75% of the window',
      mode: 'standard',
      tokensBefore: 6200,
      tokensAfter: 3100,
      detail: '=HYPERLINK("x")',
    },
    { type: 'recorded-compaction', step: 2, atMs: 9200, id: 'c1', tokensBefore: 9000, tokensAfter: 3000 },
  ];
  const rolling = unit('rolling-window', steps, events, { retention: 2 / 3, answerRecall: 0.5, count: 3, unanswered: 0 });
  return { ...rolling, options: { groups: 4 }, thresholds: [{ label: 'trigger', tokens: 6000 }], probes: rollingProbes() };
}

function answer(probeId: string, kind: ProbeAnswer['kind'], correct: boolean, text: string): ProbeAnswer {
  return {
    probeId,
    kind,
    question: `Question of ${probeId}?`,
    expected: `expected ${probeId}`,
    askedAt: 'end',
    step: 2,
    answer: text,
    correct,
    reason: correct ? 'matched' : 'no match',
    retrieved: !correct,
    correctWithRetrieval: !correct,
    retrievalTokens: correct ? 0 : 250,
    inputTokens: 3100,
    outputTokens: 20,
  };
}

function rollingProbes(): UnitProbeResult {
  return {
    answers: [answer('p-port', 'recall', true, 'The port is 8080, "quoted", with a, comma'), answer('p-file', 'artifact', false, 'Not found in the context.')],
    retention: [
      {
        probeId: 'p-port',
        kind: 'recall',
        points: [
          [0, 1],
          [1, 1],
          [2, 1],
        ],
      },
      {
        probeId: 'p-file',
        kind: 'artifact',
        points: [
          [1, 1],
          [2, 0],
        ],
      },
    ],
    recall: { withoutRetrieval: 0.5, withRetrieval: 1, retrievalTokens: 250, probeTokens: 6240 },
    byKind: { recall: { retention: 1, answerRecall: 1, count: 1, unanswered: 0 }, artifact: { retention: 0.5, answerRecall: 0, count: 1, unanswered: 0 } },
    specifics: { paths: 1, commands: null, numbers: 0.5 },
  };
}
