import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { runSuite, prepareScenarios } from '../../src/run/run-suite.js';
import { planUnits } from '../../src/run/plan.js';
import { runPlannedUnits, type UnitProgress } from '../../src/run/workers.js';
import { renderJson } from '../../src/report/json.js';
import { writeFiles } from '../helpers/temp.js';
import { transpiledPackage } from '../helpers/transpile.js';
import { resultsOnOneAndTwoThreads } from '../helpers/thread-results.js';
import { CORPUS_LOGS } from '../../src/metrics/corpus.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');

/** Two small scenarios in different provider formats, three strategies each. */
function suite(): string {
  const common = (name: string, dialect: string, seed: number) =>
    [
      `name: ${name}`,
      'transcript:',
      `  generate: { steps: 16, seed: ${seed}, dialect: ${dialect}, toolOutputTokens: 700, facts: 4 }`,
      `provider: ${dialect}`,
      'window: 16000',
      'quota: { tpm: 60000 }',
      `seed: ${seed}`,
      'strategies: [full, rolling-window, codex-rebuild]',
    ].join('\n');
  return writeFiles({ 'a.yaml': common('gemini-small', 'gemini', 3), 'b.yaml': common('openai-small', 'openai', 4) });
}

const resultJson = async (scenarios: string, workers: number): Promise<string> =>
  (renderJson(await runSuite({ scenarios: [scenarios], workers }))[0] as { contents: string }).contents;

describe('workers: results do not depend on the worker count', () => {
  const dir = suite();

  it('gives byte-identical results with 1, 2 and 3 workers (the in-thread pool of the TypeScript source)', async () => {
    const one = await resultJson(dir, 1);
    expect(await resultJson(dir, 2)).toBe(one);
    expect(await resultJson(dir, 3)).toBe(one);
    const result = JSON.parse(one) as { units: { scenario: string; strategy: string; summary: { steps_completed: number } }[] };
    expect(result.units.map((u) => `${u.scenario}/${u.strategy}`)).toEqual([
      'gemini-small/full',
      'gemini-small/rolling-window',
      'gemini-small/codex-rebuild',
      'openai-small/full',
      'openai-small/rolling-window',
      'openai-small/codex-rebuild',
    ]);
    expect(result.units.every((u) => u.summary.steps_completed > 0)).toBe(true);
  });

  it('reports each unit starting and ending, and returns results in plan order', async () => {
    const prepared = await prepareScenarios([dir]);
    const units = planUnits(prepared, {});
    const events: UnitProgress[] = [];
    const results = await runPlannedUnits(units, { mode: 'mock', workers: 2, onProgress: (e) => events.push(e) });
    expect(results.map((r) => r.strategy)).toEqual(units.map((u) => u.spec.label));
    expect(events.filter((e) => e.phase === 'start').map((e) => e.unit.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(events.filter((e) => e.phase === 'end').every((e) => e.result !== undefined)).toBe(true);
  });
});

/**
 * Worker threads run JavaScript: vitest compiles the TypeScript in its own process and cannot hand
 * a .ts module to a thread. So this test runs the CLI from the sources transpiled file by file
 * into a temporary package (test/helpers/transpile.ts: no whole-project compile, never a stale
 * dist/), with --workers 1 and --workers 2.
 */
describe('workers: real worker threads (sources transpiled on the fly)', () => {
  it('gives the same result.json with 1 and 2 threads', { timeout: 300_000 }, async () => {
    const build = await transpiledPackage();
    const cli = join(build, 'dist', 'cli', 'main.js');
    expect(existsSync(cli), 'no dist/cli/main.js in the transpiled package').toBe(true);

    const dir = suite();
    const outputs = await resultsOnOneAndTwoThreads(dir);
    expect(outputs.two, '--workers 2 (threads of the transpiled CLI) against --workers 1 (in this process)').toBe(outputs.one);
    const units = (JSON.parse(outputs.two) as { units: { summary: { steps_completed: number } }[] }).units;
    // Six units answered by the simulator inside the workers (each with its own in-process transport).
    expect(units.map((u) => u.summary.steps_completed > 0)).toEqual([true, true, true, true, true, true]);

    // A unit that fails in a worker stops the pool and comes back as the harness error it was.
    const probe = join(build, 'failing-unit.mjs');
    const unit = (index: number) => ({
      index,
      scenario: { file: join(dir, 'missing.yaml'), overrides: {} },
      spec: { label: 'full', strategy: 'full', options: {} },
    });
    writeFileSync(
      probe,
      [
        `import { runPlannedUnits } from ${JSON.stringify(pathToFileURL(join(build, 'dist', 'run', 'workers.js')).href)};`,
        `runPlannedUnits(${JSON.stringify([unit(0), unit(1), unit(2)])}, { mode: 'mock', workers: 2 })`,
        "  .then(() => console.log('resolved'), (e) => console.log(`${e.exitCode} ${e.message}`));",
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, [probe], { cwd: root });
    expect(stdout.trim()).toMatch(/^2 .*missing\.yaml: cannot read scenario: ENOENT$/);
  });

  it('gives the same result.json for a corpus run log-major on 2 threads as on 1', { timeout: 300_000 }, async () => {
    const dir = writeFiles({ 'corpus.yaml': 'name: corpus\ntranscript: logs\nprobes: generate\nwindow: 9000\nstrategies: [full, rolling-window]\n' });
    mkdirSync(join(dir, 'logs'));
    const sources = ['django__django-11163.traj.json', 'django__django-10999.traj.json'];
    for (let i = 0; i <= CORPUS_LOGS; i++) {
      const name = sources[i % sources.length] as string;
      copyFileSync(join(root, 'fixtures', 'real', 'mini-swe-agent', name), join(dir, 'logs', `${String(i).padStart(2, '0')}-${name}`));
    }
    // Each thread gets logs one at a time and the main thread combines them in log order, whichever ends first.
    const outputs = await resultsOnOneAndTwoThreads(join(dir, 'corpus.yaml'));
    expect(outputs.two).toBe(outputs.one);
    const units = (JSON.parse(outputs.two) as { units: { summary: { logs: number; crashed_logs: number } }[] }).units;
    expect(units.map((unit) => unit.summary.logs)).toEqual([CORPUS_LOGS + 1, CORPUS_LOGS + 1]);
  });

  it("makes a log's probes on a thread that has no unit to run: the probes this thread makes", { timeout: 300_000 }, async () => {
    const build = await transpiledPackage();
    const dir = suite();
    const log = join(root, 'fixtures', 'real', 'mini-swe-agent', 'django__django-11163.traj.json');
    const module = (path: string) => JSON.stringify(pathToFileURL(join(build, 'dist', path)).href);
    const unit = (index: number) => ({ index, scenario: { file: join(dir, 'a.yaml'), overrides: {} }, spec: { label: 'full', strategy: 'full', options: {} } });
    const script = join(build, 'generate-on-thread.mjs');
    writeFileSync(
      script,
      [
        `import { runPlannedUnits } from ${module('run/workers.js')};`,
        `import { generateProbes } from ${module('probes/generate.js')};`,
        `import { loadTranscript } from ${module('scenario/load-transcript.js')};`,
        `import { extractNeededUses } from ${module('probes/needed/extract.js')};`,
        `const transcript = await loadTranscript({ kind: 'file', path: ${JSON.stringify(log)}, lenient: false }, 0);`,
        'let made;',
        `const complete = async (key, generate) => { made ??= await generate(transcript, { max: 3 }); };`,
        `await runPlannedUnits(${JSON.stringify([unit(0), unit(1)])}, { mode: 'mock', workers: 2, complete });`,
        // The log's needed facts come back with its probes, made on that thread too.
        'const same = JSON.stringify(made.probes) === JSON.stringify(generateProbes(transcript, { max: 3 }));',
        'console.log(same && JSON.stringify(made.needed) === JSON.stringify(extractNeededUses(transcript)), made.probes.length);',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, [script], { cwd: root });
    expect(stdout.trim()).toMatch(/^true [1-9]/);
  });
});
