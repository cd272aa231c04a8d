import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strategyNames } from '../strategies/index.js';
import { measureCli, type BenchRow, type Measurement } from './cases.js';

/** The real trajectories the corpus is made of, repeated. */
const SOURCE = fileURLToPath(new URL('../../fixtures/real/mini-swe-agent/', import.meta.url));

/** A benchmark's worth of logs (issue 27: 499 SWE-bench trajectories held 5.7 GB and wrote nothing). */
const CORPUS_SIZE = 500;

/** The peak memory a corpus run must stay under, on 2 worker threads (MiB). */
const PEAK_TARGET_MIB = 2560;

/**
 * A folder of `size` logs (the 23 given mini-swe-agent trajectories repeated in order, each copy
 * named apart) and a scenario over it with generated probes and every strategy, in a fresh
 * temporary folder the caller removes.
 */
function buildCorpus(size = CORPUS_SIZE): { dir: string; scenario: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ctxbench-corpus-'));
  const logs = join(dir, 'logs');
  mkdirSync(logs);
  const files = readdirSync(SOURCE)
    .filter((name) => name.endsWith('.traj.json'))
    .sort();
  for (let i = 0; i < size; i++) {
    const name = files[i % files.length] as string;
    copyFileSync(join(SOURCE, name), join(logs, `${String(Math.floor(i / files.length)).padStart(2, '0')}-${name}`));
  }
  const scenario = join(dir, 'corpus.yaml');
  writeFileSync(scenario, `name: corpus-${size}\ntranscript: logs\nprobes: generate\nstrategies: [all]\n`);
  return { dir, scenario };
}

/**
 * 500 real trajectories × every strategy on 2 worker threads, every report written (as `ctxbench
 * run` writes them): its wall time, and its peak memory against the target.
 */
export async function benchCorpus(log: (line: string) => void, into: Record<string, Measurement>): Promise<BenchRow[]> {
  const { dir, scenario } = buildCorpus();
  try {
    const out = join(dir, 'out');
    const m = (into['corpus/500'] = await measureCli(log, `corpus ${CORPUS_SIZE} logs × ${strategyNames().length} strategies, 2 workers`, [
      'run',
      scenario,
      '--workers',
      '2',
      '--out',
      out,
      '--quiet',
    ]));
    const html = statSync(join(out, 'index.html')).size / 2 ** 20;
    const json = statSync(join(out, 'result.json')).size / 2 ** 20;
    const files = `index.html ${html.toFixed(1)} MiB, result.json ${json.toFixed(0)} MiB`;
    return [
      {
        name: `corpus ${CORPUS_SIZE} logs: wall time`,
        value: m.seconds,
        bound: 'info',
        target: 0,
        unit: 's',
        note: `${m.cpuSeconds.toFixed(0)} s CPU; ${m.note}`,
      },
      { name: `corpus ${CORPUS_SIZE} logs: peak RSS`, value: m.maxRssMiB, bound: 'max', target: PEAK_TARGET_MIB, unit: 'MiB', note: files },
      {
        name: `corpus ${CORPUS_SIZE} logs: index.html`,
        value: html,
        bound: 'max',
        target: 10,
        unit: 'MiB',
        note: 'aggregate views and a per-log drill-down, no per-log chart',
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
