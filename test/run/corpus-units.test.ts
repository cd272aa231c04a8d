import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareScenarios } from '../../src/run/run-suite.js';
import { planUnits, scenarioKey, type PlannedUnit } from '../../src/run/plan.js';
import { runPlannedUnits, type UnitProgress } from '../../src/run/workers.js';
import { createUnitExecutor } from '../../src/run/execute-unit.js';
import { corpusUnits, packLogResults } from '../../src/run/corpus-units.js';
import { combineLogResults } from '../../src/run/combine-logs.js';
import { summarizeUnit } from '../../src/metrics/summarize.js';
import { CORPUS_LOGS } from '../../src/metrics/corpus.js';
import { withRunMemos } from '../../src/memo.js';
import type { UnitResult } from '../../src/metrics/types.js';
import type { PreparedScenario } from '../../src/run/prepared-scenario.js';
import type { Transcript } from '../../src/transcript/types.js';
import { tempDir } from '../helpers/temp.js';

const SOURCE = resolve('fixtures/real/mini-swe-agent');

/**
 * A corpus just past `CORPUS_LOGS` of the two shortest real trajectories, alternately: at window
 * 9000 `full` overflows every copy of django-10999 and replays django-11163 whole, and the
 * simulated model answers half its calls with a server error (a provider fault inside a log: data).
 */
function corpus(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'logs'));
  const sources = ['django__django-11163.traj.json', 'django__django-10999.traj.json'];
  for (let i = 0; i <= CORPUS_LOGS; i++) {
    const name = sources[i % sources.length] as string;
    copyFileSync(join(SOURCE, name), join(dir, 'logs', `${String(i).padStart(2, '0')}-${name}`));
  }
  const scenario = join(dir, 'corpus.yaml');
  writeFileSync(scenario, 'name: corpus\ntranscript: logs\nprobes: generate\nwindow: 9000\nfaults: { server500: 0.5 }\nstrategies: [full, rolling-window]\n');
  return scenario;
}

describe('a corpus runs log-major', () => {
  it('replays each log through every unit, and combines the units as a unit run log after log combines them', async () => {
    const prepared = await prepareScenarios([corpus()]);
    const units = planUnits(prepared, {});
    const byKey = () => new Map(prepared.map((p) => [scenarioKey({ file: p.scenario.file, overrides: {} }), p]));
    const events: string[] = [];
    const onProgress = ({ phase, unit, logs }: UnitProgress) =>
      events.push(logs === undefined ? `${phase} ${unit.spec.label}` : `${phase} ${logs.done}/${logs.total}`);
    const logMajor = await withRunMemos({}, () => runPlannedUnits(units, { mode: 'mock', workers: 2, prepared: byKey(), onProgress }));
    const executor = createUnitExecutor({ mode: 'mock' }, byKey());
    const unitByUnit = await withRunMemos({}, async () => {
      const results: UnitResult[] = [];
      for (const unit of units) results.push(await executor.run(unit));
      return results;
    });
    expect(JSON.stringify(logMajor)).toBe(JSON.stringify(unitByUnit));
    // A run of some of the units (a --resume whose journal holds the others) replays the logs through those only.
    const rest = await withRunMemos({}, () => runPlannedUnits(units.slice(1), { mode: 'mock', workers: 1, prepared: byKey() }));
    expect(JSON.stringify(rest)).toBe(JSON.stringify(logMajor.slice(1)));
    // Every unit starts with the first log and ends with the last; each log through both units is reported.
    const logEvents = Array.from({ length: CORPUS_LOGS + 1 }, (_, i) => `log ${i + 1}/${CORPUS_LOGS + 1}`);
    expect(events).toEqual(['start full', 'start rolling-window', ...logEvents, 'end full', 'end rolling-window']);
    const [full, rolling] = logMajor;
    expect(full?.logs?.length).toBe(CORPUS_LOGS + 1);
    // Half the logs overflow `full`; some of the others end on server errors the retries did not outlast.
    expect(full?.summary.crashed_logs).toBeGreaterThan((CORPUS_LOGS + 1) / 2);
    // The server errors ended the sessions of some logs and not others: faults stay within their log.
    const faulted = (rolling?.logs ?? []).filter((log) => log.summary.crashed).length;
    expect(faulted).toBeGreaterThan(0);
    expect(faulted).toBeLessThan(CORPUS_LOGS + 1);
  }, 120_000);
});

describe('corpusUnits', () => {
  const LOGS = CORPUS_LOGS + 2;
  const file = '/corpus/corpus.yaml';
  const unit = (index: number, label: string): PlannedUnit => ({ index, scenario: { file, overrides: {} }, spec: { label, strategy: label, options: {} } });
  const logs = Array.from({ length: LOGS }, (_, i) => ({
    file: `/corpus/logs/${i}.json`,
    transcript: { header: { id: `log-${i}` } } as unknown as Transcript,
  }));
  const scenario = { scenario: { file }, transcript: logs[0]?.transcript, logs } as unknown as PreparedScenario;
  const resultOf = (label: string, i: number): UnitResult => {
    // Logs of different lengths: each log's first step in the unit says where it was combined.
    const summary = summarizeUnit({ scenario: 'c', strategy: label, totalSteps: i + 1, steps: [], events: [] });
    return { scenario: 'c', strategy: label, options: {}, summary, steps: [], events: [] };
  };

  it('hands out logs in order, and combines logs that come back out of order, packed, as the logs in order combine', () => {
    const prepared = new Map([[scenarioKey({ file, overrides: {} }), scenario]]);
    const [units] = corpusUnits([unit(0, 'full'), unit(1, 'rolling-window')], prepared, true);
    if (units === undefined) throw new Error('one corpus expected');
    const taken = Array.from({ length: LOGS }, () => units.take()?.index);
    expect(taken).toEqual(logs.map((_, i) => i));
    expect(units.take()).toBeUndefined();
    // Released: this map no longer holds the corpus's logs; the scenario without them is what threads get.
    expect(prepared.size).toBe(0);
    expect(units.scenario().logs).toBeUndefined();
    const complete = [...taken]
      .reverse()
      .map((i) => units.add(i as number, packLogResults([resultOf('full', i as number), resultOf('rolling-window', i as number)])));
    expect(complete).toEqual([...Array.from({ length: LOGS - 1 }, () => false), true]);
    const combined = [...units.combined()];
    expect(combined.map(([unit]) => unit.spec.label)).toEqual(['full', 'rolling-window']);
    const inOrder = ['full', 'rolling-window'].map((label) =>
      combineLogResults(
        logs.map((log, i) => ({ log, result: resultOf(label, i) })),
        '/corpus',
      ),
    );
    expect(JSON.stringify(combined.map(([, result]) => result))).toBe(JSON.stringify(inOrder));
    expect(combined[0]?.[1].logs?.map((log) => [log.id, log.firstStep])).toEqual(logs.map((_, i) => [`log-${i}`, (i * (i + 1)) / 2]));
  });

  it('leaves out scenarios of at most CORPUS_LOGS logs', () => {
    const few = { ...scenario, logs: logs.slice(0, CORPUS_LOGS) } as PreparedScenario;
    expect(corpusUnits([unit(0, 'full')], new Map([[scenarioKey({ file, overrides: {} }), few]]), false)).toEqual([]);
  });
});
