import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSuite } from '../../src/run/run-suite.js';
import { renderJson } from '../../src/report/json.js';
import { InputError } from '../../src/errors.js';
import type { RunResult, UnitProbeResult, UnitResult } from '../../src/metrics/types.js';
import type { Transcript } from '../../src/transcript/types.js';
import { combineLogResults, type LogResult } from '../../src/run/combine-logs.js';
import { summarizeUnit } from '../../src/metrics/summarize.js';
import { CORPUS_LOGS } from '../../src/metrics/corpus.js';
import { writeFiles } from '../helpers/temp.js';

/**
 * A scenario that names a folder or a pattern of logs: every log replayed through every strategy,
 * one summary row per strategy over all of them. Two real mini-swe-agent runs of 13 and 18 calls.
 */
const LOGS = ['django__django-11163.traj.json', 'django__django-10999.traj.json'];
const SOURCE = resolve('fixtures/real/mini-swe-agent');

/** A scenario beside a `logs/` folder holding the two logs; `transcript` as the scenario writes it. */
function scenarioOver(transcript: string): string {
  const text = `name: two\ntranscript: "${transcript}"\nprobes: generate\nwindow: 9000\nstrategies: [full, rolling-window]\n`;
  const dir = writeFiles({ 'two.yaml': text });
  mkdirSync(join(dir, 'logs'));
  for (const name of LOGS) copyFileSync(join(SOURCE, name), join(dir, 'logs', name));
  return join(dir, 'two.yaml');
}

function unitOf(result: RunResult, label: string): UnitResult {
  const found = result.units.find((u) => u.strategy === label);
  if (found === undefined) throw new Error(`no unit ${label}`);
  return found;
}

describe('a scenario over several logs', () => {
  it('replays each log through each strategy and sums them into one row, with each log kept', async () => {
    const result = await runSuite({ scenarios: [scenarioOver('logs/')] });
    expect(result.scenarios[0]).toMatchObject({ steps: 31, logs: 2 });
    const full = unitOf(result, 'full');
    // Sorted by name: django-10999 (18 calls) first, then django-11163 (13).
    expect(full.logs?.map((log) => [log.id, log.firstStep, log.summary.steps])).toEqual([
      ['django__django-10999', 0, 18],
      ['django__django-11163', 18, 13],
    ]);
    const [a, b] = full.logs ?? [];
    if (a === undefined || b === undefined) throw new Error('two logs expected');
    expect(full.summary.steps).toBe(31);
    expect(full.summary.steps_completed).toBe(a.summary.steps_completed + b.summary.steps_completed);
    expect(full.summary.prompt_tokens).toBe(a.summary.prompt_tokens + b.summary.prompt_tokens);
    expect(full.summary.peak_context_tokens).toBe(Math.max(a.summary.peak_context_tokens, b.summary.peak_context_tokens));
    expect(full.summary.probes).toBe((a.summary.probes ?? 0) + (b.summary.probes ?? 0));
    expect([full.summary.logs, full.summary.crashed_logs]).toEqual([2, [a, b].filter((log) => log.summary.crashed).length]);
    expect(full.summary.crashed).toBe(a.summary.crashed || b.summary.crashed);
    // Steps are numbered on across logs, so the second log's first step is step 18.
    // At window 9000 `full` overflows the first log at its step 13 (Gemini-calibrated counts), and replays the second whole.
    expect([a.summary.crash_step, b.summary.crashed]).toEqual([13, false]);
    expect(full.summary).toMatchObject({
      steps_completed: 26,
      crashed: true,
      crash_step: 13,
      prompt_tokens: 138898,
      peak_context_tokens: 9475,
      probes: 24,
      unanswered: 17,
      logs: 2,
      crashed_logs: 1,
    });
    // Steps are numbered on across logs: the second log's first step is step 18.
    expect(full.steps.map((s) => s.step)).toEqual([...Array.from({ length: 14 }, (_, i) => i), ...Array.from({ length: 13 }, (_, i) => 18 + i)]);
    expect(full.probes?.answers.every((answer) => /^django__django-1(0999|1163)\//.test(answer.probeId))).toBe(true);
    expect(unitOf(result, 'rolling-window').summary.saving_vs_full).not.toBeNull();
  });

  it('reads a pattern as it reads a folder, and gives byte-identical results with two workers', async () => {
    const folder = await runSuite({ scenarios: [scenarioOver('logs/')] });
    const pattern = await runSuite({ scenarios: [scenarioOver('logs/*.traj.json')] });
    const workers = await runSuite({ scenarios: [scenarioOver('logs/*.traj.json')], workers: 2 });
    const strip = (r: RunResult): string =>
      renderJson(r)[0]
        ?.contents.replace(/"file": "[^"]*"/g, '')
        .replace(/"transcript": "[^"]*"/g, '') ?? '';
    expect(strip(pattern)).toBe(strip(folder));
    expect(strip(workers)).toBe(strip(pattern));
  });

  it('fails on a pattern nothing matches, naming the scenario field', async () => {
    const error = await runSuite({ scenarios: [scenarioOver('logs/*.nothing')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).location.field).toBe('transcript');
  });
});

describe('a corpus of logs', () => {
  /** A log whose one probe kept its evidence at `kept` of two steps. */
  function logPart(i: number, kept: 0 | 1): LogResult {
    const summary = summarizeUnit({ scenario: 'c', strategy: 'full', totalSteps: 2, steps: [], events: [] });
    const probes: UnitProbeResult = {
      answers: [],
      retention: [
        {
          probeId: 'p',
          kind: 'recall',
          points: [
            [0, 1],
            [1, kept],
          ],
        },
      ],
      recall: { withoutRetrieval: null, withRetrieval: null, retrievalTokens: 0, probeTokens: 0 },
      byKind: {},
      specifics: { paths: null, commands: null, numbers: null },
    };
    const transcript = { header: { id: `log-${i}` } } as unknown as Transcript;
    return { log: { file: `/logs/${i}.json`, transcript }, result: { scenario: 'c', strategy: 'full', options: {}, summary, steps: [], events: [], probes } };
  }

  it(`keeps the retention curves up to ${CORPUS_LOGS} logs and only their figures past it`, () => {
    const parts = (n: number) => Array.from({ length: n }, (_, i) => logPart(i, (i % 2) as 0 | 1));
    const kept = combineLogResults(parts(CORPUS_LOGS));
    expect(kept.probes?.retention).toHaveLength(CORPUS_LOGS);
    const corpus = combineLogResults(parts(CORPUS_LOGS + 1));
    expect(corpus.probes?.retention).toEqual([]);
    // Half the logs kept the evidence at both steps, half at one of two: 0.75 (13 of 25 at one: 0.74),
    // computed from the curves before they went.
    expect([kept.summary.retention, corpus.summary.retention]).toEqual([0.74, 0.75]);
  });
});
