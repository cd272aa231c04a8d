#!/usr/bin/env node
/**
 * `npm run bench`: ctxbench's speed and memory targets as ratios measured in one run on this
 * machine (each session measurement in a cold child process, see measure.ts, the fastest of three
 * kept; ratios of wall times, CPU ratios beside them; runs on several threads compared in CPU
 * seconds), printed as a table
 * and written to reports/bench/bench.json. Exit 1 when a target is missed. Unit tests never time
 * anything: timing lives here.
 *
 *   npm run bench                      everything
 *   npm run bench -- vsla-long suite   only these parts (sessions: vsla-long, vsla-compacted,
 *                                      synthetic-5000; also: suite, micro, corpus: 477 distinct
 *                                      real trajectories × every strategy, every report written;
 *                                      corpus-shards: that corpus in 4 shards and merged, against
 *                                      the unsharded run, which corpus alone does not run)
 *   npm run bench -- corpus-shards --keep DIR
 *                                      the corpus and every run's output made in DIR and left
 *                                      there (DIR/corpus.yaml, DIR/out, DIR/shard-i, DIR/merged),
 *                                      so that `merge` alone can be re-run on the shards
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCorpus } from './corpus.js';
import { benchLongOutput } from './long-output.js';
import { SESSIONS, benchQuota, benchRetention, benchSession, benchSuite, type BenchReport, type BenchRow, type Measurement, type Session } from './cases.js';

const PARTS = [...Object.keys(SESSIONS), 'suite', 'micro', 'tokenizer', 'corpus', 'corpus-shards'];

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--keep');
  const keep = at >= 0 ? args[at + 1] : undefined;
  if (at >= 0 && (keep === undefined || keep.startsWith('-'))) {
    process.stderr.write('--keep needs a folder to keep the corpus and its runs in\n');
    return 2;
  }
  const asked = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  const unknown = asked.filter((part) => !PARTS.includes(part));
  if (unknown.length > 0) {
    process.stderr.write(`unknown bench part(s): ${unknown.join(', ')}; known: ${PARTS.join(', ')}\n`);
    return 2;
  }
  const wanted = (part: string) => asked.length === 0 || asked.includes(part);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const measurements: Record<string, Measurement> = {};
  const rows: BenchRow[] = [];
  const loadBefore = loadavg();
  // bench.json is rewritten after every part: a long run stopped half-way keeps what it measured.
  const write = () => {
    const report: BenchReport = {
      machine: { cpus: availableParallelism(), node: process.version, loadAverage: [...loadBefore, ...loadavg()] },
      measurements,
      rows,
    };
    const dir = fileURLToPath(new URL('../../reports/bench/', import.meta.url));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'bench.json'), `${JSON.stringify(report, null, 2)}\n`);
  };
  if (wanted('micro')) rows.push(await benchRetention(), await benchQuota());
  if (wanted('tokenizer')) rows.push(benchLongOutput(true), benchLongOutput(false));
  // The real sessions, then the suite, then the 5,000-step synthetic session (the longest part).
  const names = Object.keys(SESSIONS);
  const order = [...names.filter((n) => !n.startsWith('synthetic')), 'suite', ...names.filter((n) => n.startsWith('synthetic'))];
  for (const part of order.filter(wanted)) {
    if (part === 'suite') rows.push(...(await benchSuite(log, measurements)));
    else {
      log(`session ${part}`);
      rows.push(...(await benchSession(await (SESSIONS[part] as () => Promise<Session>)(), log, measurements)));
    }
    write();
  }
  // The shards are measured against the unsharded run the corpus part makes (made for them alone when only they are asked for).
  const shards = wanted('corpus-shards');
  if (wanted('corpus') || shards) {
    log(shards ? 'corpus, then in 4 shards and merged' : 'corpus');
    rows.push(...(await benchCorpus(log, measurements, { whole: wanted('corpus'), shards, ...(keep !== undefined ? { keep } : {}) })));
  }
  write();

  const width = Math.max(...rows.map((r) => r.name.length));
  const met = (r: BenchRow) => (r.bound === 'info' ? true : r.bound === 'max' ? r.value <= r.target : r.value >= r.target);
  for (const r of rows) {
    const target = r.bound === 'info' ? 'none' : `${r.bound === 'max' ? '≤' : '≥'} ${Number(r.target.toFixed(2))} ${r.unit}`;
    const verdict = r.bound === 'info' ? 'info' : met(r) ? 'ok  ' : 'MISS';
    process.stdout.write(`${verdict} ${r.name.padEnd(width)}  ${r.value.toFixed(2).padStart(8)} ${r.unit.padEnd(2)} (target ${target})  ${r.note}\n`);
  }
  process.stdout.write(
    `load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} → ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores; written to reports/bench/bench.json\n`,
  );
  return rows.every(met) ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  void main().then((code) => {
    process.exitCode = code;
  });
}
