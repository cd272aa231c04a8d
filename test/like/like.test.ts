import { describe, expect, it } from 'vitest';
import { fitLogFiles, generateLike, generateLikeSessions, checkLike, loadFitFile } from '../../src/like/index.js';
import { InputError } from '../../src/errors.js';
import { fitLogs } from '../../src/like/fit.js';
import { observeLog, shapeOf, taskStretchesOf, type TaskStretches } from '../../src/like/observe.js';
import { LEVELS } from '../../src/like/draw.js';
import type { LikeFit } from '../../src/like/fit-types.js';
import { serializeTranscript, writeTranscript } from '../../src/transcript/write.js';
import { extractNeededUses } from '../../src/probes/needed/extract.js';
import { spearman } from '../../src/like/spearman.js';
import { tempDir } from '../helpers/temp.js';
import { loadTranscript } from '../../src/scenario/load-transcript.js';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const MINI = 'fixtures/real/mini-swe-agent';
const A = [`${MINI}/django__django-11163.traj.json`, `${MINI}/django__django-10999.traj.json`];
const B = [`${MINI}/scikit-learn__scikit-learn-14141.traj.json`, `${MINI}/django__django-11880.traj.json`];
/** Claude Code logs whose plan tool (TodoWrite) leaves about half their steps out of any task that completes. */
const PLANNED = ['fixtures/real/claude-code-compactions/swordintel-54bc4295.jsonl', 'fixtures/real/claude-code-compactions/swordintel-b260c379.jsonl'];

/** The share of the steps that a task completing later holds (what a task-evicting strategy evicts). */
function coveredShare(all: readonly TaskStretches[]): number {
  const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
  const spans = sum(all.flatMap((s) => s.spans));
  return spans / (spans + sum(all.flatMap((s) => [s.lead, s.tail, ...s.gaps])));
}

describe('the fit of real logs', () => {
  it('reads sizes, turns and needed uses of mini-swe-agent runs', async () => {
    const fit = await fitLogFiles(A);
    expect(fit.logs).toBe(2);
    expect(fit.formats).toEqual({ 'mini-swe-agent': 1 });
    expect(fit.toolsAsText).toBeGreaterThan(0.5);
    expect(fit.steps).toHaveLength(LEVELS.length);
    expect(fit.steps[0]).toBe(13);
    expect(fit.steps.at(-1)).toBe(18);
    expect(fit.needed.usesPerStep).toBeGreaterThan(0);
    expect(fit.needed.distance[0]).toBeGreaterThanOrEqual(10);
    expect(Object.keys(fit.toolOutput.shapes).length).toBeGreaterThan(0);
    expect(fit.compaction.perStep).toBe(0);
  });

  it('reads compactions and their summary size from Claude Code logs', async () => {
    const fit = await fitLogFiles(['fixtures/real/claude-code-compactions/mclaude-97b0ffde.jsonl']);
    expect(fit.compaction.perStep).toBeGreaterThan(0);
    expect(fit.compaction.summaryTokens[0]).toBeGreaterThan(100);
    expect(fit.hiddenTokens[0]).toBeGreaterThan(1000);
  });

  it('reads the stretches of steps that tasks completing later hold', () => {
    const task = (id: string, status: 'in_progress' | 'completed') => ({ type: 'task' as const, id, status });
    const step = (n: number) => ({ type: 'message' as const, id: `a${n}`, role: 'assistant' as const, text: '' });
    // Steps 0-1 before any task, 2-4 in task a, 5-6 in b (opened within a, still open when a completes, c never completes), 7 after.
    const events = [step(0), step(1), task('a', 'in_progress'), step(2), step(3), task('c', 'in_progress'), task('b', 'in_progress'), step(4)];
    events.push(task('a', 'completed'), step(5), step(6), task('b', 'completed'), step(7), step(8));
    expect(taskStretchesOf(events)).toEqual({ lead: 2, spans: [3, 2], gaps: [0], tail: 2 });
    expect(taskStretchesOf([step(0), task('a', 'in_progress'), step(1), task('a', 'completed')])).toEqual({ lead: 2, spans: [], gaps: [], tail: 0 });
  });

  it('sorts tool output by shape', () => {
    expect(shapeOf('     1\tdef f():\n     2\t    return 1\n')).toBe('code');
    expect(shapeOf('===== 3 passed in 0.2s =====')).toBe('test');
    expect(shapeOf('a.py\nb.py\nsrc/c.py\n')).toBe('listing');
    expect(shapeOf('Cloning into the repository, please wait a moment')).toBe('text');
  });
});

describe('sessions drawn from a fit', () => {
  it('are the same for a seed, differ between seeds, and take a fixed length', async () => {
    const fit = await fitLogFiles(A);
    const one = serializeTranscript(generateLike(fit, { seed: 7 }));
    expect(serializeTranscript(generateLike(fit, { seed: 7 }))).toBe(one);
    expect(serializeTranscript(generateLike(fit, { seed: 8 }))).not.toBe(one);
    const long = generateLike(fit, { seed: 7, steps: 120 });
    expect(long.events.filter((e) => e.type === 'message' && e.role === 'assistant')).toHaveLength(120);
    // The logs' tasks (one per user request) come back as task events, which task-evicting strategies read.
    expect(fit.task.perStep).toBeGreaterThan(0);
    expect(long.events.some((e) => e.type === 'task' && e.status === 'completed' && e.source === 'user-turns')).toBe(true);
  });

  it('open a task at every user request, whose first the second request completes, at the pace of the log the session stands for', async () => {
    const fit = await fitLogFiles(A);
    const constant = (value: number): number[] => LEVELS.map(() => value);
    // The pooled timeline says spans of 5 and a long lead; tasks of user requests follow the requests instead.
    const task = {
      ...fit.task,
      source: { 'user-turns': 1 },
      perStep: 0.1,
      none: 0,
      lead: constant(0.25),
      spans: constant(5),
      gaps: constant(0),
      tail: constant(0.125),
    };
    const paced = (requestSteps: number): LikeFit => ({
      ...fit,
      task: { ...task, steps: { perLog: constant(requestSteps), relative: constant(1), largest: requestSteps } },
      perLog: fit.perLog.map((l) => ({ ...l, requestSteps })),
    });
    const session = generateLike(paced(3), { seed: 1, steps: 40 });
    // Requests at steps 0, 3, …, 39: each but the last completes at the next (spans of 3), the last is the tail.
    expect(taskStretchesOf(session.events)).toMatchObject({ lead: 0, tail: 1 });
    expect(taskStretchesOf(session.events).spans).toEqual(Array.from({ length: 13 }, () => 3));
    expect(session.events.filter((e) => e.type === 'message' && e.role === 'user')).toHaveLength(14);
    // A log of one request (its steps the session's): one request, no task that completes, whatever the pooled spans.
    const one = generateLike(paced(40), { seed: 1, steps: 40 });
    expect(taskStretchesOf(one.events).spans).toEqual([]);
    expect(one.events.filter((e) => e.type === 'message' && e.role === 'user')).toHaveLength(1);
  });

  it('hold needed facts where the fit says later steps find them', async () => {
    const fit = await fitLogFiles(A);
    const sessions = generateLikeSessions(fit, { count: 4, seed: 1, steps: 60 });
    const refit = fitLogs(sessions.map(observeLog));
    // The needed-fact extraction finds the planted uses: about as many per step, as far back.
    expect(refit.needed.usesPerStep).toBeGreaterThan(fit.needed.usesPerStep * 0.6);
    expect(refit.needed.usesPerStep).toBeLessThan(fit.needed.usesPerStep * 1.5);
    expect(refit.needed.distance[0]).toBeGreaterThanOrEqual(10);
    expect(sessions.every((s) => extractNeededUses(s).length > 0)).toBe(true);
    // Tool output sizes: the sessions' mean per session within a factor of two of the logs'.
    const median = (q: readonly number[]): number => q[10] ?? 0;
    expect(median(refit.toolOutput.tokens.perLog)).toBeGreaterThan(median(fit.toolOutput.tokens.perLog) / 2);
    expect(median(refit.toolOutput.tokens.perLog)).toBeLessThan(median(fit.toolOutput.tokens.perLog) * 2);
  });
});

describe('a fit read back (--fit)', () => {
  it('draws the same sessions as the fit it was written from, and names the field of a broken one', async () => {
    const fit = await fitLogFiles(A);
    const file = join(tempDir(), 'fit.json');
    writeFileSync(file, `${JSON.stringify(fit, null, 2)}\n`);
    const read = await loadFitFile(file);
    expect(read).toEqual(fit);
    const draw = (f: typeof fit): string => generateLikeSessions(f, { count: 2, seed: 3 }).map(serializeTranscript).join('');
    expect(draw(read)).toBe(draw(fit));
    const { inCall: _dropped, ...needed } = fit.needed;
    writeFileSync(file, JSON.stringify({ ...fit, needed }, null, 2));
    const error = await loadFitFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).location).toMatchObject({ file, field: 'needed.inCall' });
    expect((error as InputError).exitCode).toBe(2);
  });

  it('reads back the fit of Claude Code logs, whose dialect is anthropic', async () => {
    const fit = await fitLogFiles(['fixtures/real/claude-code/coverage-test-fix.jsonl']);
    expect(fit.dialect).toBe('anthropic');
    const file = join(tempDir(), 'fit.json');
    writeFileSync(file, `${JSON.stringify(fit, null, 2)}\n`);
    expect(await loadFitFile(file)).toEqual(fit);
  });
});

describe('sessions drawn like planned Claude Code logs', () => {
  it('leave as many steps out of completing tasks, and hold facts in calls as often, as the logs', async () => {
    const fit = await fitLogFiles(PLANNED);
    const logs = await Promise.all(PLANNED.map(async (file) => observeLog(await loadTranscript({ kind: 'file', path: file, lenient: true }, 0))));
    const sessions = generateLikeSessions(fit, { count: 6, seed: 1 });
    const real = coveredShare(logs.map((l) => l.taskStretches));
    expect(real).toBeLessThan(0.6);
    expect(Math.abs(coveredShare(sessions.map((s) => taskStretchesOf(s.events))) - real)).toBeLessThan(0.15);
    // The agent's own words name the files and names it uses again in its calls (tombstones keep calls), and so do earlier calls.
    const refit = fitLogs(sessions.map(observeLog));
    expect(fit.needed.inCall).toBeGreaterThan(0.6);
    expect(Math.abs(refit.needed.inCall - fit.needed.inCall)).toBeLessThan(0.2);
    for (const role of ['tool', 'assistant'] as const) {
      expect(fit.needed.earlierCopy[role].call).toBeGreaterThan(0.2);
      expect(Math.abs((refit.needed.earlierCopy[role].call ?? 0) - (fit.needed.earlierCopy[role].call ?? 0))).toBeLessThan(0.25);
    }
  });
});

describe('the check against unseen logs', () => {
  it('ranks strategies on A, B and the sessions like A and correlates the rankings', { timeout: 300_000 }, async () => {
    const root = tempDir();
    const folder = (name: string, files: readonly string[]): string => {
      const dir = join(root, name);
      mkdirSync(dir);
      for (const file of files) copyFileSync(file, join(dir, basename(file)));
      return dir;
    };
    const fit = await fitLogFiles(A);
    const generated = [];
    for (const seed of [1, 2]) {
      const dir = join(root, `generated-${seed}`);
      for (const [i, session] of generateLikeSessions(fit, { count: 2, seed, steps: 24 }).entries())
        await writeTranscript(session, join(dir, `like-${i}.ctx.jsonl`));
      generated.push({ seed, folder: dir });
    }
    const strategies = ['rolling-window', 'tiered-truncation', 'observation-masking', 'clear-tool-results'];
    const result = await checkLike({ realA: folder('a', A), realB: folder('b', B), generated, window: 16000, strategies });
    expect(result.seeds).toEqual([1, 2]);
    expect(result.rows.map((r) => r.strategy)).toEqual(strategies);
    for (const row of result.rows) {
      for (const figures of [row.saving, row.neededRecall]) {
        expect(figures.generated).toHaveLength(2);
        for (const value of [figures.realA, figures.realB, ...figures.generated]) {
          expect(value).not.toBeNull();
          expect(value).toBeLessThanOrEqual(1);
        }
      }
    }
    const column = (pick: (r: (typeof result.rows)[number]) => number | null | undefined): number[] => result.rows.map((r) => pick(r) as number);
    expect(result.saving.realAvsB).toBe(
      spearman(
        column((r) => r.saving.realA),
        column((r) => r.saving.realB),
      ),
    );
    const perSeed = (pick: (r: (typeof result.rows)[number]) => readonly (number | null)[], realB: (r: (typeof result.rows)[number]) => number | null) =>
      [0, 1].map((i) =>
        spearman(
          column((r) => pick(r)[i]),
          column(realB),
        ),
      );
    expect(result.neededRecall.generatedVsBPerSeed).toEqual(
      perSeed(
        (r) => r.neededRecall.generated,
        (r) => r.neededRecall.realB,
      ),
    );
    const saving = perSeed(
      (r) => r.saving.generated,
      (r) => r.saving.realB,
    );
    expect(result.saving.generatedVsBPerSeed).toEqual(saving);
    const [one, two] = saving as [number, number];
    expect([one, two]).not.toContain(null);
    expect(result.saving.generatedVsB).toBeCloseTo((one + two) / 2, 12);
    expect(result.saving.generatedVsBMin).toBe(Math.min(one, two));
    expect(result.saving.generatedVsBMax).toBe(Math.max(one, two));
  });
});
