import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { measureCli, type BenchRow, type Measurement } from './cases.js';

/** Shards a CI matrix would run the corpus in (issue 37). */
const SHARDS = 4;

/** Issue 37's targets: each shard at most a third of the unsharded run, the merge within 15 s and 500 MB. */
const TARGETS = { share: 1 / 3, mergeSeconds: 15, mergeMiB: 500e6 / 2 ** 20 };

/** What the corpus part ran already: the scenario, the folder it ran into, and its measurement. */
export interface CorpusRun {
  dir: string;
  scenario: string;
  out: string;
  whole: Measurement;
  size: number;
}

/**
 * The corpus in `SHARDS` shards (`run --shard i/4 --workers 2`, one after another, every report
 * written), then `merge` of them: each shard's wall time and CPU seconds as a share of the
 * unsharded run's, the merge's wall time and peak RSS, and the merged files against the unsharded
 * run's, byte for byte (the count of files that differ; target none).
 */
export async function benchCorpusShards(log: (line: string) => void, into: Record<string, Measurement>, run: CorpusRun): Promise<BenchRow[]> {
  const name = `corpus ${run.size} logs`;
  const rows: BenchRow[] = [];
  const results: string[] = [];
  for (let i = 1; i <= SHARDS; i++) {
    const out = join(run.dir, `shard-${i}`);
    const m = (into[`corpus/${run.size}/shard-${i}-of-${SHARDS}`] = await measureCli(log, `corpus shard ${i}/${SHARDS}, 2 workers`, [
      'run',
      run.scenario,
      '--workers',
      '2',
      '--shard',
      `${i}/${SHARDS}`,
      '--out',
      out,
      '--quiet',
    ]));
    results.push(join(out, 'result.json'));
    const share = (part: number, whole: number, what: string): BenchRow => ({
      name: `${name}: shard ${i}/${SHARDS} ${what}`,
      value: part / whole,
      bound: 'max',
      target: TARGETS.share,
      unit: '×',
      note: `of the unsharded run's (${part.toFixed(1)} of ${whole.toFixed(1)} s)`,
    });
    rows.push(share(m.seconds, run.whole.seconds, 'wall time'), share(m.cpuSeconds, run.whole.cpuSeconds, 'CPU'));
  }
  const merged = join(run.dir, 'merged');
  const m = (into[`corpus/${run.size}/merge`] = await measureCli(log, `merge of the ${SHARDS} shards`, ['merge', ...results, '-o', merged, '--quiet']));
  const files = readdirSync(run.out).filter((file) => !file.startsWith('.'));
  const differing = files.filter((file) => !readFileSync(join(run.out, file)).equals(readFileSync(join(merged, file))));
  if (differing.length > 0) log(`  merged files that differ from the unsharded run's: ${differing.join(', ')}`);
  rows.push(
    { name: `${name}: merge wall time`, value: m.seconds, bound: 'max', target: TARGETS.mergeSeconds, unit: 's', note: `merge of ${SHARDS} shards` },
    { name: `${name}: merge peak RSS`, value: m.maxRssMiB, bound: 'max', target: TARGETS.mergeMiB, unit: 'MiB', note: '500 MB' },
    {
      name: `${name}: merged files differing`,
      value: differing.length,
      bound: 'max',
      target: 0,
      unit: '',
      note: `of the ${files.length} the unsharded run wrote, compared byte for byte`,
    },
  );
  return rows;
}
