import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp.js';
import { runSession } from '../../src/cli/run-session.js';
import { runSuite } from '../../src/run/run-suite.js';
import { renderReports } from '../../src/report/index.js';
import { writeReportFiles } from '../../src/report/write.js';
import { resultForWriting } from '../../src/redact/result.js';
import { CORPUS_LOGS } from '../../src/metrics/corpus.js';
import { JOURNAL_FILE } from '../../src/run/journal.js';
import { shardLogs } from '../../src/run/shard.js';
import type { RunResult } from '../../src/metrics/types.js';
import { cli } from '../helpers/cli.js';
import { shortCorpus } from '../helpers/short-corpus.js';

describe('the reports of a corpus run', () => {
  it('are the bytes of the whole result in memory, though the run kept its units summary-only and read them back from its journal', async () => {
    const scenario = shortCorpus();
    const streamed = tempDir();
    const result = await runSession(
      { scenarios: [scenario], overrides: {}, mode: 'mock', redact: true },
      { out: streamed, workers: 1, quiet: true, resume: false },
    );
    // The run kept no step, event or answer of a corpus unit in memory...
    expect(result.units.map((unit) => [unit.steps.length, unit.probes?.answers.length])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(result.units.every((unit) => unit.summary.saving_vs_full !== null && unit.summary.saving_ci_low !== null)).toBe(true);
    expect(existsSync(join(streamed, JOURNAL_FILE))).toBe(false);

    // ...and wrote what rendering the whole result in memory writes.
    const whole = tempDir();
    await writeReportFiles(whole, renderReports(resultForWriting(await runSuite({ scenarios: [scenario] }), true)));
    const files = readdirSync(whole).sort();
    expect(readdirSync(streamed).sort()).toEqual(['.ctxbench-out', ...files]);
    expect(readFileSync(join(whole, 'steps.csv'), 'utf8').split('\n').length).toBeGreaterThan(300);
    for (const file of files) expect({ file, same: readFileSync(join(streamed, file)).equals(readFileSync(join(whole, file))) }).toEqual({ file, same: true });
    // Two runs of a 26-log corpus: past the default minute on a loaded machine.
  }, 300_000);
});

describe('a corpus run sharded four ways', () => {
  it('takes every fourth log through every strategy in each shard, and merges into the bytes of the unsharded run', async () => {
    const scenario = shortCorpus(['full', 'observation-masking', 'rolling-window', 'tiered-truncation']);
    const whole = tempDir();
    expect((await cli(['run', scenario, '--out', whole, '--quiet', '--workers', '1'])).code).toBe(0);
    const stored = JSON.parse(readFileSync(join(whole, 'result.json'), 'utf8')) as RunResult;
    expect(stored.schemaVersion).toBe(2);
    expect(stored.units.map((unit) => [unit.steps.length, unit.probes?.answers.length, unit.spanMs! > 0])).toEqual(stored.units.map(() => [0, 0, true]));
    const shards: string[] = [];
    for (const i of [1, 2, 3, 4]) {
      const out = tempDir();
      expect((await cli(['run', scenario, '--out', out, '--shard', `${i}/4`, '--quiet', '--workers', '1'])).code).toBe(0);
      shards.push(join(out, 'result.json'));
      // Each shard ran every unit over its own logs, and says so; what its units made of each log is beside its result.
      const shard = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as RunResult;
      const taken = shardLogs(CORPUS_LOGS + 1, { index: i, count: 4 });
      expect(shard.shard?.units).toEqual([0, 1, 2, 3]);
      expect(shard.shard?.corpora?.map((corpus) => [corpus.scenario, corpus.units, corpus.logs.length, corpus.taken])).toEqual([
        ['corpus', [0, 1, 2, 3], CORPUS_LOGS + 1, taken],
      ]);
      expect(shard.units.map((unit) => unit.logs?.map((log) => log.transcript))).toEqual(
        shard.units.map(() => taken.map((index) => shard.shard?.corpora?.[0]?.logs[index]?.transcript)),
      );
      expect([existsSync(join(out, 'shard-logs.json')), existsSync(join(out, 'shard-logs.bin'))]).toEqual([true, true]);
    }
    const merged = tempDir();
    expect((await cli(['merge', ...shards.reverse(), '-o', merged, '--quiet'])).code).toBe(0);
    // Nothing but the reports is left in the merge's folder (the units it kept while writing them are gone).
    expect(readdirSync(merged).sort()).toEqual(readdirSync(whole).sort());
    // Each unit was combined from the four shards' logs, and paired with full over all of them.
    const joined = JSON.parse(readFileSync(join(merged, 'result.json'), 'utf8')) as RunResult;
    expect(joined.units.every((unit) => unit.summary.saving_vs_full !== null && unit.summary.saving_ci_low !== null)).toBe(true);
    for (const file of [
      'result.json',
      'summary.csv',
      'steps.csv',
      'steps.parquet',
      'events.csv',
      'probes.csv',
      'needed.csv',
      'index.html',
      'summary.md',
      'junit.xml',
    ])
      expect({ file, same: readFileSync(join(merged, file)).equals(readFileSync(join(whole, file))) }).toEqual({ file, same: true });
    expect((await cli(['check', join(merged, 'result.json'), '--baseline', join(whole, 'result.json')])).code).toBe(0);
    // report renders the same pages from the small result, and copies the step files it cannot render to another folder.
    const again = tempDir();
    expect((await cli(['report', join(whole, 'result.json'), '-o', again, '--quiet'])).code).toBe(0);
    for (const file of ['summary.csv', 'steps.csv', 'steps.parquet', 'index.html', 'summary.md', 'junit.xml'])
      expect({ file, same: readFileSync(join(again, file)).equals(readFileSync(join(whole, file))) }).toEqual({ file, same: true });
    // Five runs of a 26-log corpus: minutes on a loaded machine.
  }, 600_000);
});
