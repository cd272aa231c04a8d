import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClock } from '../quota/clock.js';
import { QuotaGate } from '../quota/quota.js';
import { strategyNames } from '../strategies/index.js';
import { createProbeObserver } from '../replay/probe-observer.js';
import { prepareProbeSet } from '../probes/probe-set.js';
import { generateSession } from '../transcript/synthetic/generate.js';
import { importTranscript } from '../transcript/importers/index.js';
import { serializeTranscript } from '../transcript/write.js';
import type { StepContext } from '../replay/step.js';
import type { StepRecord } from '../metrics/run-events.js';
import type { StrategyEnv } from '../strategies/types.js';
import type { ContextMessage, Probe } from '../transcript/types.js';
import { diffContexts, wholeContext } from '../transcript/context-diff.js';

const execFileAsync = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const measureScript = fileURLToPath(new URL('./measure.js', import.meta.url));

/** What one child process measured (src/bench/measure.ts). */
export interface Measurement {
  seconds: number;
  cpuSeconds: number;
  maxRssMiB: number;
  note: string;
}

const cliScript = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const usagePreload = new URL('./exit-usage.js', import.meta.url).href;

/**
 * Runs `ctxbench <args>` once, in a child process, as a user runs it, and measures it: its wall
 * time, and (src/bench/exit-usage.ts, preloaded) its CPU seconds and peak RSS, worker threads
 * included. A command that could not run (exit 2 and up) fails the bench.
 */
export async function measureCli(log: (line: string) => void, label: string, args: string[]): Promise<Measurement> {
  log(`  ${label}…`);
  const usageFile = join(mkdtempSync(join(tmpdir(), 'ctxbench-usage-')), 'usage.json');
  const started = performance.now();
  try {
    await execFileAsync(process.execPath, ['--import', usagePreload, cliScript, ...args], {
      cwd: root,
      env: { ...process.env, CTXBENCH_USAGE_FILE: usageFile },
      maxBuffer: 64 * 2 ** 20,
    });
  } catch (error) {
    // Exit 1: the run finished and wrote its reports, but a unit crashed for a strategy error.
    if ((error as { code?: unknown }).code !== 1) throw error;
  }
  const seconds = (performance.now() - started) / 1000;
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { cpuSeconds: number; maxRssMiB: number };
  const m: Measurement = { seconds, cpuSeconds: usage.cpuSeconds, maxRssMiB: usage.maxRssMiB, note: `ctxbench ${args[0] ?? ''}` };
  log(`  ${label}: ${m.seconds.toFixed(2)} s wall, ${m.cpuSeconds.toFixed(2)} s CPU, ${m.maxRssMiB.toFixed(0)} MiB peak`);
  return m;
}

/** One line of the table: a ratio (or a time) and its target. */
export interface BenchRow {
  name: string;
  value: number;
  /** `max`: value ≤ target; `min`: value ≥ target; `info`: shown beside the targets, none of them. */
  bound: 'max' | 'min' | 'info';
  target: number;
  unit: string;
  note: string;
}

export interface BenchReport {
  machine: { cpus: number; node: string; loadAverage: number[] };
  measurements: Record<string, Measurement>;
  rows: BenchRow[];
}

/** A session the bench replays, as bodies of scenario files (their strategies added per case). */
export interface Session {
  name: string;
  /** Scenario lines without `name` and `strategies`: the session as the suite would read it. */
  full: string[];
  /** The same session, and its first half (half the model calls), read the same way as each other. */
  lengthFull: string[];
  lengthHalf: string[];
  /**
   * Worker threads for the every-strategy runs: 1, as the target is stated (runs on several
   * threads would be compared in CPU seconds, which add up over threads).
   */
  workers: number;
  /** Cold runs per measurement, the fastest kept (see `measure`): 1 for the long synthetic session. */
  repeats: number;
  /** A real agent's log (the RSS target is stated for real sessions). */
  real: boolean;
  /**
   * The speed targets over the floor: `full` alone, and every strategy as a multiple of the
   * strategy count or a fixed bound (issue 37 states 1.5× and 4.2× for the long shared log).
   */
  targets: { full: number; every: (strategies: number) => number };
}

/** The targets of a session no issue states its own for: full within 2×, each strategy 0.6× more. */
const DEFAULT_TARGETS: Session['targets'] = { full: 2, every: (n) => 1 + 0.6 * n };

/**
 * A real log: as is for the floor, `full` and every strategy; for the length ratio, imported and
 * written as canonical transcripts of all of it and of the events before its middle model call
 * (cutting the raw log at half its lines would not cut half the calls).
 */
async function realSession(name: string, file: string, window: number, targets = DEFAULT_TARGETS): Promise<Session> {
  const path = join(root, file);
  const transcript = await importTranscript(path, {});
  const calls = transcript.events.flatMap((e, i) => (e.type === 'message' && e.role === 'assistant' ? [i] : []));
  const cut = calls[Math.ceil(calls.length / 2)] ?? transcript.events.length;
  const dir = mkdtempSync(join(tmpdir(), 'ctxbench-bench-'));
  const whole = join(dir, `${name}.ctx.jsonl`);
  const half = join(dir, `${name}-half.ctx.jsonl`);
  writeFileSync(whole, serializeTranscript(transcript));
  writeFileSync(half, serializeTranscript({ ...transcript, events: transcript.events.slice(0, cut) }));
  const body = (transcript: string) => [`transcript: ${JSON.stringify(transcript)}`, 'probes: generate', 'provider: openai', `window: ${window}`];
  return { name, full: body(path), lengthFull: body(whole), lengthHalf: body(half), workers: 1, repeats: 3, real: true, targets };
}

async function syntheticSession(steps: number): Promise<Session> {
  const body = (n: number) => ['transcript:', `  generate: { steps: ${n}, seed: 1 }`, 'provider: openai', 'window: 128000', 'seed: 1'];
  // One array for both: benchSession then runs the full length once (it compares by identity).
  const whole = body(steps);
  return {
    name: `synthetic-${steps}`,
    full: whole,
    lengthFull: whole,
    lengthHalf: body(steps / 2),
    workers: 1,
    repeats: 1,
    real: false,
    targets: DEFAULT_TARGETS,
  };
}

export const SESSIONS: Record<string, () => Promise<Session>> = {
  // Issue 37: full within 1.5× the floor, the 21 strategies within 4.2×, on one worker.
  'vsla-long': () => realSession('vsla-long', 'fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl', 200_000, { full: 1.5, every: () => 4.2 }),
  'vsla-compacted': () => realSession('vsla-compacted', 'fixtures/real/claude-code-long/vsla-0a725fb5.jsonl', 100_000),
  'synthetic-5000': () => syntheticSession(5000),
};

function scenarioFile(session: Session, length: 'full' | 'lengthFull' | 'lengthHalf', strategies: readonly string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ctxbench-bench-')), `${session.name}.yaml`);
  writeFileSync(file, [`name: ${session.name}`, ...session[length], `strategies: [${strategies.join(', ')}]`, ''].join('\n'));
  return file;
}

/**
 * Runs one measurement `repeats` times, each in a cold child process, and keeps the fastest: on a
 * shared machine a run is only ever slowed down by its neighbours, so the minimum is the figure
 * least disturbed by them (the usual practice for timing).
 */
async function measure(log: (line: string) => void, label: string, args: string[], repeats = 1): Promise<Measurement> {
  let best: Measurement | undefined;
  for (let i = 0; i < repeats; i++) {
    log(`  ${label}${repeats > 1 ? ` (${i + 1}/${repeats})` : ''}…`);
    const { stdout } = await execFileAsync(process.execPath, [measureScript, ...args], { cwd: root, maxBuffer: 64 * 2 ** 20 });
    const m = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Measurement;
    log(`  ${label}: ${m.seconds.toFixed(2)} s wall, ${m.cpuSeconds.toFixed(2)} s CPU, ${m.maxRssMiB.toFixed(0)} MiB peak (${m.note})`);
    if (best === undefined || m.seconds < best.seconds) best = m;
  }
  return { ...(best as Measurement), note: `${(best as Measurement).note}${repeats > 1 ? `; best of ${repeats}` : ''}` };
}

/** Floor, `full` alone, every strategy, every strategy at half length; ratios of wall times. */
export async function benchSession(session: Session, log: (line: string) => void, into: Record<string, Measurement>): Promise<BenchRow[]> {
  const all = strategyNames();
  const n = all.length;
  const at = async (key: string, args: string[], repeats = session.repeats) =>
    (into[`${session.name}/${key}`] = await measure(log, `${session.name} ${key}`, args, repeats));
  // Every ratio is over the floor: it is the best of three cold runs even where the long runs are
  // measured once (one run of the synthetic session's floor moved between 9 and 12 s).
  const floor = await at('floor', ['floor', scenarioFile(session, 'full', ['full'])], Math.max(3, session.repeats));
  const full = await at('full', ['run', scenarioFile(session, 'full', ['full']), '1']);
  const workers = String(session.workers);
  const every = await at('all', ['run', scenarioFile(session, 'full', all), workers]);
  // The synthetic session's full length is the same run as `all`.
  const long = session.lengthFull === session.full ? every : await at('all-canonical', ['run', scenarioFile(session, 'lengthFull', all), workers]);
  const half = await at('all-half', ['run', scenarioFile(session, 'lengthHalf', all), workers]);
  const fmt = (m: Measurement) => `${m.seconds.toFixed(1)} s wall, ${m.cpuSeconds.toFixed(1)} s CPU`;
  // Wall time, each the best of `repeats` cold runs. CPU seconds add V8's own threads (concurrent
  // GC, compilation), which a run that allocates more keeps busier on the other core without
  // making the user wait longer: their ratio is in the note.
  // Runs on several worker threads (the long synthetic session) are compared in CPU seconds, which
  // add up over threads: the ratio then compares work, not parallelism.
  const ratio = (a: Measurement, b: Measurement, threads = 1) => (threads > 1 ? a.cpuSeconds / b.cpuSeconds : a.seconds / b.seconds);
  const wall = (a: Measurement, b: Measurement, threads = 1) =>
    threads > 1 ? `wall ratio ${(a.seconds / b.seconds).toFixed(2)}` : `CPU ratio ${(a.cpuSeconds / b.cpuSeconds).toFixed(2)}`;
  return [
    {
      name: `${session.name}: full / floor`,
      value: ratio(full, floor),
      bound: 'max',
      target: session.targets.full,
      unit: '×',
      note: `${wall(full, floor)}; full ${fmt(full)} (${full.note}); floor ${fmt(floor)}`,
    },
    {
      name: `${session.name}: ${n} strategies / floor`,
      value: ratio(every, floor, session.workers),
      bound: 'max',
      target: session.targets.every(n),
      unit: '×',
      note: `${wall(every, floor, session.workers)}; all ${fmt(every)} on ${workers} worker(s) (${every.note})`,
    },
    {
      name: `${session.name}: full length / half length`,
      value: ratio(long, half, session.workers),
      bound: 'max',
      target: 2.2,
      unit: '×',
      note: `${wall(long, half, session.workers)}; every strategy; ${long.note} vs ${half.note}`,
    },
    {
      name: `${session.name}: peak RSS ${n} strategies / full`,
      value: every.maxRssMiB / full.maxRssMiB,
      // The target is for real sessions. `full` alone overflows a synthetic session early (its
      // context grows without bound), so there it measures little more than the floor.
      bound: session.real ? 'max' : 'info',
      target: 2,
      unit: '×',
      note: `${every.maxRssMiB.toFixed(0)} vs ${full.maxRssMiB.toFixed(0)} MiB${session.real ? '' : `; full stops at its overflow (${full.note}): shown, no target`}`,
    },
  ];
}

/** The bundled suite (what `npm start` runs) with 1 and 2 worker threads. */
export async function benchSuite(log: (line: string) => void, into: Record<string, Measurement>): Promise<BenchRow[]> {
  const suite = join(root, 'scenarios');
  const one = (into['suite/1-worker'] = await measure(log, 'default suite, 1 worker', ['run', suite, '1'], 2));
  const two = (into['suite/2-workers'] = await measure(log, 'default suite, 2 workers', ['run', suite, '2'], 2));
  // One worker already keeps V8's GC and compiler threads busy on other cores (CPU > wall): two
  // workers on this machine's cores can then be at most cores × wall / CPU of one worker faster.
  const ceiling = (Math.min(2, availableParallelism()) * one.seconds) / one.cpuSeconds;
  return [
    {
      name: 'default suite: 1 worker / 2 workers',
      value: one.seconds / two.seconds,
      bound: 'min',
      target: 1.7,
      unit: '×',
      note: `1: ${one.seconds.toFixed(1)} s (${one.cpuSeconds.toFixed(1)} s CPU), 2: ${two.seconds.toFixed(1)} s (${two.cpuSeconds.toFixed(1)} s CPU); ceiling on this machine ${ceiling.toFixed(2)} (${two.note})`,
    },
    {
      name: 'default suite, 2 workers (npm start)',
      value: two.seconds,
      bound: 'max',
      target: 20,
      unit: 's',
      note: `CPU ${two.cpuSeconds.toFixed(1)} s; npm start adds the build and the reports`,
    },
  ];
}

/**
 * Retention measured at every step for every probe, with no model call: 50 probes at each of 500
 * steps of a growing context (was a unit test with a wall-clock bound; timing belongs here).
 */
export async function benchRetention(): Promise<BenchRow> {
  const session = generateSession({ steps: 500, seed: 4, facts: 52, toolOutputTokens: 200 });
  const probes: Probe[] = session.events.flatMap((e) => (e.type === 'probe' ? [{ ...e.probe, ask: ['end' as const] }] : [])).slice(0, 50);
  const observer = createProbeObserver(prepareProbeSet(session, probes));
  const env = { format: 'openai', archive: { get: () => undefined, lookup: () => undefined } } as unknown as StrategyEnv;
  observer.onStart?.({ env, events: [] } as unknown as StepContext);
  const history: ContextMessage[] = [];
  let sent = wholeContext([]);
  let step = 0;
  const started = performance.now();
  for (const event of session.events) {
    if (event.type !== 'message') continue;
    if (event.role === 'assistant') {
      sent = diffContexts(sent.after, history);
      await observer.onStep?.({ step, status: 'ok' } as StepRecord, sent, env);
      step += 1;
    }
    history.push(event);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    name: 'retention observer, 50 probes × 500 steps',
    value: seconds,
    bound: 'max',
    target: 3,
    unit: 's',
    note: `${probes.length} probes, ${step} steps`,
  };
}

/** 10^4 quota admissions on the virtual clock. */
export async function benchQuota(): Promise<BenchRow> {
  const clock = createClock();
  const gate = new QuotaGate({ tpm: 50_000, rpm: 100 }, 'openai', clock);
  const started = performance.now();
  let admitted = 0;
  while (admitted < 10_000) {
    const admission = gate.admit({ inputTokens: 700, maxOutputTokens: 100 });
    if (admission.admitted) admitted += 1;
    else clock.advance(admission.retryAfterMs);
    clock.advance(200);
  }
  return { name: 'quota gate, 10k admissions', value: performance.now() - started, bound: 'max', target: 500, unit: 'ms', note: '' };
}
