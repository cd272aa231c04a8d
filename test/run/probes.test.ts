import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { prepareScenarios, runSuite } from '../../src/run/run-suite.js';
import { renderCsv } from '../../src/report/csv.js';
import { renderJson } from '../../src/report/json.js';
import { deriveGroups } from '../../src/transcript/structure.js';
import type { RunResult, UnitResult } from '../../src/metrics/types.js';
import type { Probe, Transcript } from '../../src/transcript/types.js';
import { writeFiles } from '../helpers/temp.js';

/**
 * Recall measured through the real engine and the mocked providers (nock + the simulated reader):
 * the measure must be able to fail. On a session that fits the window, `full` keeps everything;
 * a rolling window of one group must lose what is older than its group.
 */

const RECALL_FITS = 'scenarios/recall-fits.yaml';

/** The bundled recall-fits scenario with its own strategies, written to a temporary folder. */
function recallFits(fields: Record<string, unknown>): string {
  // The file's identicalRows explain its own strategy list; a copy with other strategies drops them.
  const { identicalRows: _explained, ...bundled } = parse(readFileSync(RECALL_FITS, 'utf8')) as Record<string, unknown>;
  const data: Record<string, unknown> = { ...bundled, ...fields };
  return join(writeFiles({ 'recall-fits.yaml': stringify(data) }), 'recall-fits.yaml');
}

function unitOf(result: RunResult, label: string): UnitResult {
  const found = result.units.find((u) => u.strategy === label);
  if (found === undefined) throw new Error(`no unit ${label}`);
  return found;
}

function probesOf(transcript: Transcript): Probe[] {
  return transcript.events.flatMap((e) => (e.type === 'probe' ? [e.probe] : []));
}

/** Probes whose every evidence message lies before the last group opens (the last user message). */
function oldProbes(transcript: Transcript): Set<string> {
  const lastGroup = deriveGroups(transcript.events).at(-1);
  const indexOf = (id: string): number => transcript.events.findIndex((e) => e.type === 'message' && e.id === id);
  return new Set(
    probesOf(transcript)
      .filter((p) => p.evidence.length > 0 && p.evidence.every((id) => indexOf(id) < (lastGroup?.start ?? 0)))
      .map((p) => p.id),
  );
}

describe('recall on a session that fits the window', async () => {
  const file = recallFits({ strategies: ['full', { label: 'rolling-window-1', strategy: 'rolling-window', options: { groups: 1 } }] });
  const [prepared] = await prepareScenarios([file]);
  const transcript = prepared?.transcript as Transcript;
  const probes = probesOf(transcript);
  const result = await runSuite({ scenarios: [file] });
  const full = unitOf(result, 'full');
  const window1 = unitOf(result, 'rolling-window-1');
  const old = oldProbes(transcript);

  it('has hard probes of every sort: updated values, an early-only fact, absences', () => {
    expect(probes.length).toBeGreaterThanOrEqual(12);
    expect(probes.some((p) => p.id.endsWith('pinned-dependency'))).toBe(true);
    expect(probes.filter((p) => p.expected.notInSession === true).length).toBeGreaterThan(0);
    expect(old.size).toBeGreaterThan(3);
  });

  it('full keeps every piece of evidence and answers at least 95% of the probes', () => {
    expect(full.summary.crashed).toBe(false);
    expect(full.summary.retention).toBe(1);
    expect(full.summary.answer_recall).toBeGreaterThanOrEqual(0.95);
    expect(full.summary.probes).toBe(probes.length);
    expect(full.probes?.recall.withoutRetrieval).toBe(full.summary.answer_recall);
  });

  it('a rolling window of one group scores lower, on the probes whose evidence is old', () => {
    expect(window1.summary.crashed).toBe(false);
    expect(window1.summary.retention).toBeLessThan(0.9);
    expect(window1.summary.answer_recall).toBeLessThan((full.summary.answer_recall ?? 0) - 0.2);
    const endAnswers = (unit: UnitResult, ids: Set<string>) => (unit.probes?.answers ?? []).filter((a) => a.askedAt === 'end' && ids.has(a.probeId));
    const share = (answers: { correct: boolean }[]) => answers.filter((a) => a.correct).length / answers.length;
    expect(share(endAnswers(full, old))).toBe(1);
    expect(share(endAnswers(window1, old))).toBeLessThan(0.5);
    // What the last group holds, the window keeps: retained at the end.
    const recent = new Set(probes.filter((p) => p.evidence.length > 0 && !old.has(p.id)).map((p) => p.id));
    for (const curve of window1.probes?.retention ?? []) {
      if (recent.has(curve.probeId)) expect(curve.points.at(-1), curve.probeId).toEqual([48, 1]);
      if (old.has(curve.probeId)) expect(curve.points.at(-1), curve.probeId).toEqual([48, 0]);
    }
  });

  it('writes a retention curve per probe with evidence, from the step the evidence appeared to the end', () => {
    const json = JSON.parse(renderJson(result)[0]?.contents ?? '{}') as RunResult;
    const curves = json.units.find((u) => u.strategy === 'full')?.probes?.retention ?? [];
    const measured = prepared?.probes?.probes.filter((p) => p.visibleFrom !== undefined && p.prepared.measurable) ?? [];
    expect(curves.map((c) => c.probeId)).toEqual(measured.map((p) => p.probe.id));
    for (const probe of measured) {
      const curve = curves.find((c) => c.probeId === probe.probe.id);
      const steps = curve?.points.map(([step]) => step) ?? [];
      expect(steps[0], probe.probe.id).toBe(probe.visibleFrom);
      expect(steps.at(-1), probe.probe.id).toBe(48);
      expect(new Set(curve?.points.map(([, kept]) => kept))).toEqual(new Set([1]));
    }
  });

  it('fills retention, answer_recall and probes in summary.csv', () => {
    const summary = renderCsv(result).find((f) => f.file === 'summary.csv')?.contents ?? '';
    const [header, ...rows] = summary.trim().split('\n');
    const columns = (header ?? '').split(',');
    for (const row of rows) {
      const cells = row.split(',');
      for (const column of ['retention', 'answer_recall', 'probes']) expect(cells[columns.indexOf(column)], `${column} in ${row}`).toMatch(/^\d/);
    }
    expect(rows).toHaveLength(2);
  });

  it('reports probe calls apart from the agent: not as overhead, their tokens in probeTokens', () => {
    const probeCalls = full.events.filter((e) => e.type === 'call' && e.purpose === 'probe');
    expect(probeCalls.length).toBe(full.probes?.answers.length);
    expect(full.summary.overhead_tokens).toBe(0);
    const tokens = probeCalls.reduce((n, e) => n + (e.type === 'call' ? e.inputTokens + e.outputTokens : 0), 0);
    expect(full.probes?.recall.probeTokens).toBe(tokens);
    expect(full.summary.total_tokens).toBe(full.summary.prompt_tokens + full.summary.completion_tokens);
  });

  it('grades a "not in the session" probe correct when the reader says so', () => {
    const absent = (full.probes?.answers ?? []).filter((a) => a.expected === '(not in the session)');
    expect(absent.length).toBeGreaterThan(0);
    for (const answer of absent) expect(answer).toMatchObject({ correct: true, answer: 'Not found in the context.' });
  });
});

describe('recall when the session crashes', () => {
  it('counts the ask points after the crash as unanswered, apart from answer recall', async () => {
    const file = recallFits({ window: 9000, strategies: ['full'] });
    const result = await runSuite({ scenarios: [file] });
    const full = unitOf(result, 'full');
    const crashStep = full.summary.crash_step ?? -1;
    expect(full.summary.crashed).toBe(true);
    const ends = (full.probes?.answers ?? []).filter((a) => a.askedAt === 'end');
    expect(ends.length).toBe(full.summary.probes);
    for (const answer of ends)
      expect(answer).toMatchObject({ answer: '(session ended before this point)', correct: false, unanswered: true, step: crashStep, inputTokens: 0 });
    for (const answer of full.probes?.answers ?? []) if (answer.askedAt === 'step') expect(answer.step < crashStep || !answer.correct).toBe(true);
    // Recall is over the one probe asked before the crash (answered right); the 17 ask points the
    // crash came before are unanswered, not wrong: the crash columns already say what happened.
    expect(full.summary.answer_recall).toBe(1);
    expect(full.summary.unanswered).toBe(17);
    expect((full.probes?.answers ?? []).filter((a) => a.unanswered === true)).toHaveLength(17);
    // Retention covers the steps sent, and the evidence the strategy sent was all there.
    expect(full.summary.retention).toBe(1);
    for (const curve of full.probes?.retention ?? []) for (const [step] of curve.points) expect(step).toBeLessThan(crashStep);
  });
});
