import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strategyNames } from '../strategies/index.js';
import { measureCli, type BenchRow, type Measurement } from './cases.js';
import { writeDistinctCorpus } from './distinct-corpus.js';
import { benchCorpusShards } from './corpus-shards.js';

/** The real trajectories the corpus is made of, renamed apart (distinct-corpus.ts). */
const SOURCE = fileURLToPath(new URL('../../fixtures/real/mini-swe-agent/', import.meta.url));

/** A benchmark's worth of logs: SWE-bench Verified's 477 mini-swe-agent runs (issue 37). */
const CORPUS_SIZE = 477;

/** Issue 37's targets for that corpus × every strategy on 2 worker threads. */
const TARGETS = { wallSeconds: 180, cpuSeconds: 360, peakMiB: 1536, resultMiB: 50, htmlMiB: 10 };

/**
 * A folder of `size` distinct logs (the 23 given mini-swe-agent trajectories, then renamed copies
 * of them) and a scenario over it with three generated probes per log and every strategy, in a
 * fresh temporary folder the caller removes, or in `keep` (an empty or new folder), which it leaves.
 */
function buildCorpus(keep: string | undefined, size = CORPUS_SIZE): { dir: string; scenario: string } {
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'ctxbench-corpus-'));
  if (keep !== undefined) {
    mkdirSync(keep, { recursive: true });
    // Not over an earlier corpus: the runs would refuse its outputs, or measure a corpus of other logs.
    if (readdirSync(keep).length > 0) throw new Error(`--keep ${keep}: not an empty folder`);
  }
  writeDistinctCorpus(SOURCE, join(dir, 'logs'), size);
  const scenario = join(dir, 'corpus.yaml');
  writeFileSync(scenario, `name: corpus-${size}\ntranscript: logs\nprobes: { generate: { max: 3 } }\nstrategies: [all]\n`);
  return { dir, scenario };
}

const mib = (file: string) => statSync(file).size / 2 ** 20;

/**
 * 477 distinct real trajectories × every strategy on 2 worker threads, every report written (as
 * `ctxbench run` writes them): wall time, CPU seconds, peak RSS and the result's size, each
 * against its target (`whole`); with `shards`, the same corpus in four shards and their merge
 * against the unsharded run (corpus-shards.ts), which the unsharded run is measured for once.
 */
export async function benchCorpus(
  log: (line: string) => void,
  into: Record<string, Measurement>,
  parts: { whole: boolean; shards: boolean; keep?: string },
): Promise<BenchRow[]> {
  const { dir, scenario } = buildCorpus(parts.keep);
  try {
    const out = join(dir, 'out');
    const label = `corpus ${CORPUS_SIZE} distinct logs × ${strategyNames().length} strategies, 2 workers`;
    const m = (into[`corpus/${CORPUS_SIZE}`] = await measureCli(log, label, ['run', scenario, '--workers', '2', '--out', out, '--quiet']));
    const rows = parts.whole ? wholeRows(m, out) : [];
    if (parts.shards) rows.push(...(await benchCorpusShards(log, into, { dir, scenario, out, whole: m, size: CORPUS_SIZE })));
    return rows;
  } finally {
    if (parts.keep === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

function wholeRows(m: Measurement, out: string): BenchRow[] {
  const html = mib(join(out, 'index.html'));
  const json = mib(join(out, 'result.json'));
  const name = `corpus ${CORPUS_SIZE} logs`;
  return [
    { name: `${name}: wall time`, value: m.seconds, bound: 'max', target: TARGETS.wallSeconds, unit: 's', note: 'on 2 idle cores' },
    { name: `${name}: CPU`, value: m.cpuSeconds, bound: 'max', target: TARGETS.cpuSeconds, unit: 's', note: 'user + system, every thread' },
    { name: `${name}: peak RSS`, value: m.maxRssMiB, bound: 'max', target: TARGETS.peakMiB, unit: 'MiB', note: 'the whole process, worker threads included' },
    {
      name: `${name}: result.json`,
      value: json,
      bound: 'max',
      target: TARGETS.resultMiB,
      unit: 'MiB',
      note: "a corpus's units summary-only; their steps are in steps.csv and steps.parquet",
    },
    { name: `${name}: index.html`, value: html, bound: 'max', target: TARGETS.htmlMiB, unit: 'MiB', note: 'aggregate views and a per-log drill-down' },
  ];
}
