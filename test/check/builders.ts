import type { RunEvent, StepRecord } from '../../src/metrics/run-events.js';
import { summarizeUnit } from '../../src/metrics/summarize.js';
import { RESULT_SCHEMA_VERSION, type ProbeAnswer, type RetentionCurve, type RunResult, type UnitResult } from '../../src/metrics/types.js';

/** A unit to build: per-step costs (null = the step crashed), probe answers and retention. */
export interface UnitSpec {
  scenario?: string;
  strategy: string;
  /** Prompt tokens per step; a crashed step ends the list. */
  steps: number[];
  crashAt?: number;
  /** Probe id → correct? (one answer each, asked at the end). */
  answers?: Record<string, boolean>;
  /** Probe ids whose end ask point the session never reached (it crashed first). */
  unanswered?: string[];
  /** Probe id → retention points (1 kept, 0 lost), one per step from step 0. */
  retention?: Record<string, (0 | 1)[]>;
  /** USD per step (StepRecord.costUsd); none = unpriced. */
  usd?: number[];
}

function record(step: number, prompt: number, crashed: boolean): StepRecord {
  return {
    step,
    messageId: `a${step}`,
    atMs: step * 1000,
    promptTokens: crashed ? 0 : prompt,
    completionTokens: crashed ? 0 : 100,
    contextTokens: prompt,
    contextMessages: 2,
    cachedPrefixTokens: 0,
    overheadTokens: 0,
    retries: 0,
    rateLimitHits: 0,
    waitMs: 0,
    status: crashed ? 'crashed' : 'ok',
    ...(crashed ? { failure: 'overflow' as const } : {}),
  };
}

function answer(probeId: string, correct: boolean): ProbeAnswer {
  return {
    probeId,
    kind: 'recall',
    question: `what is ${probeId}?`,
    expected: probeId,
    askedAt: 'end',
    step: 0,
    answer: correct ? probeId : 'no idea',
    correct,
    reason: correct ? 'match' : 'no match',
    retrieved: false,
    correctWithRetrieval: correct,
    retrievalTokens: 0,
    inputTokens: 10,
    outputTokens: 5,
  };
}

/** A unit whose summary is reduced from its steps, as the engine does. */
function buildUnit(spec: UnitSpec): UnitResult {
  const scenario = spec.scenario ?? 'scenario-a';
  const steps = spec.steps.map((prompt, i) => {
    const usd = spec.usd?.[i];
    return { ...record(i, prompt, spec.crashAt === i), ...(usd !== undefined ? { costUsd: usd } : {}) };
  });
  const events: RunEvent[] =
    spec.crashAt === undefined ? [] : [{ type: 'crash', step: spec.crashAt, atMs: spec.crashAt * 1000, kind: 'overflow', message: 'too long' }];
  const unanswered = (spec.unanswered ?? []).map((id) => ({ ...answer(id, false), answer: '(session ended before this point)', unanswered: true as const }));
  const answers = [...Object.entries(spec.answers ?? {}).map(([id, correct]) => answer(id, correct)), ...unanswered];
  const asked = answers.filter((a) => a.unanswered !== true);
  const retention: RetentionCurve[] = Object.entries(spec.retention ?? {}).map(([probeId, points]) => ({
    probeId,
    kind: 'recall',
    points: points.map((kept, i) => [i, kept] as [number, 0 | 1]),
  }));
  const answerRecall = asked.length === 0 ? null : asked.filter((a) => a.correct).length / asked.length;
  const retained = retention.map((c) => c.points.filter(([, k]) => k === 1).length / c.points.length);
  const probes =
    answers.length === 0 && retention.length === 0
      ? undefined
      : {
          retention: retained.length === 0 ? null : retained.reduce((a, b) => a + b, 0) / retained.length,
          answerRecall,
          count: answers.length,
          unanswered: unanswered.length,
        };
  const summary = summarizeUnit({
    scenario,
    strategy: spec.strategy,
    totalSteps: spec.steps.length,
    steps,
    events,
    ...(probes !== undefined ? { probes } : {}),
  });
  return {
    scenario,
    strategy: spec.strategy,
    options: {},
    summary,
    steps,
    events,
    ...(probes !== undefined
      ? {
          probes: {
            answers,
            retention,
            recall: { withoutRetrieval: answerRecall, withRetrieval: answerRecall, retrievalTokens: 0, probeTokens: 0 },
            byKind: {},
            specifics: { paths: null, commands: null, numbers: null },
          },
        }
      : {}),
  };
}

/** A run of the given units (mocked unless `mode` says otherwise). */
export function buildRun(units: UnitSpec[], mode: 'mock' | 'live' = 'mock'): RunResult {
  const built = units.map(buildUnit);
  const names = [...new Set(built.map((u) => u.scenario))];
  return {
    schemaVersion: RESULT_SCHEMA_VERSION,
    tool: { name: 'ctxbench', version: '0.1.0' },
    seed: 42,
    mode,
    scenarios: names.map((name) => ({
      name,
      file: `scenarios/${name}.yaml`,
      transcript: 'synthetic',
      provider: 'openai',
      model: 'gpt-4.1',
      window: 128000,
      steps: 20,
      seed: 42,
      skippedLines: 0,
    })),
    units: built,
  };
}

/** `n` copies of `value`. */
export function repeat(value: number, n: number): number[] {
  return Array.from({ length: n }, () => value);
}

/** Probe ids p0…p(n-1) mapped to `correct(i)`. */
export function probes(n: number, correct: (i: number) => boolean): Record<string, boolean> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, correct(i)]));
}
