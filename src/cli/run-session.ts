import { resolve } from 'node:path';
import { escapeControlDeep } from '../control-chars.js';
import type { RetrySleep } from '../quota/types.js';
import { runSuite, type RunOptions } from '../run/run-suite.js';
import { renderReports, reporterNames } from '../report/index.js';
import { writeReportFiles } from '../report/write.js';
import { renderTerminalTable } from '../report/terminal.js';
import { renderTerminalRecommendation } from '../report/terminal-recommendation.js';
import { describePartial, describeSeed, describeSkipped } from '../report/notes.js';
import { redactValue } from '../redact/index.js';
import { resultForWriting } from '../redact/result.js';
import { HarnessError, InputError, InterruptedError } from '../errors.js';
import { displayPath, givenPath } from '../paths.js';
import type { ScenarioOverrides } from '../scenario/resolve.js';
import type { ProviderMode } from '../contracts/provider.js';
import type { ShardSpec } from '../run/shard.js';
import type { DecisionOptions } from '../metrics/recommend.js';
import type { RunResult, UnitResult } from '../metrics/types.js';
import { markOutDir } from './out-owner.js';
import { checkOutDir, countJournaled, journalDetails, lockOutDir, openJournal, readJournal, journalPath, type JournalWriter } from './out-dir.js';
import { isCorpus } from '../metrics/corpus.js';
import { trapStopSignals } from './signals.js';
import { createProgress } from './progress.js';
import { createShardLogsWriter } from './shard-logs.js';
import { useColor } from './options.js';
import type { CassetteSession } from './cassette.js';
import { parseSettings, specsWithSettings } from '../sweep/settings.js';

/** What a run was asked to do: plain data, kept in its journal so --resume can do it again. */
export interface RunRequest {
  scenarios: string[];
  overrides: ScenarioOverrides;
  mode: ProviderMode;
  baseUrl?: string;
  shard?: ShardSpec;
  reports?: string[];
  redact: boolean;
  cacheDir?: string;
  /** `--set strategy.option=value` flags (sweep/settings.ts), laid on every scenario's strategy options. */
  set?: string[];
  /** Live runs: save the HTTP exchanges and waits as a cassette (`--record`), or re-run one offline (`--replay`). */
  record?: string;
  replay?: string;
  /** What the recommendation is made under (`--objective`, `--min-recall`, …). */
  decision?: DecisionOptions;
}

/** What the CLI takes from its caller besides the arguments: how live retries wait (tests record the waits instead). */
export interface CliDeps {
  retrySleep?: RetrySleep;
}

export interface SessionOptions {
  out: string;
  workers: number;
  /** False: `--no-memo` (RunOptions.memo). */
  memo?: boolean;
  quiet: boolean;
  /** Continue the journaled run in `out` instead of starting one. */
  resume: boolean;
  /** Live mode: each request's time limit in ms (`--request-timeout`). */
  requestTimeoutMs?: number;
  /** Live mode: the longest retry wait in ms (`--max-retry-wait`). */
  maxRetryWaitMs?: number;
  /** Live mode: how retries wait (default the real sleep; a cassette brings its own). */
  retrySleep?: RetrySleep;
}

/** The request a journal in `out` was started with (for --resume). */
export function requestOfJournal(out: string): RunRequest {
  return readJournal(out).header.options as unknown as RunRequest;
}

/**
 * Runs a request into `out`: the folder is checked before anything runs and locked once the run
 * is planned; every finished unit is journaled; SIGINT / SIGTERM stop the run, whose finished
 * units are then written as partial reports (InterruptedError: exit 130 / 143) and stay journaled
 * for --resume. Reports are redacted unless the request says not to.
 */
export async function runSession(request: RunRequest, options: SessionOptions): Promise<RunResult> {
  const started = performance.now();
  const out = resolve(options.out);
  checkOutDir(out);
  let lock: { release: () => void } | undefined;
  let journal: JournalWriter | undefined;
  // Loaded only for --record/--replay: the cassettes use nock, which patches the process's HTTP.
  const cassette =
    request.record === undefined && request.replay === undefined
      ? undefined
      : await (await import('./cassette.js')).openCassette(request, request.mode === 'live' ? request.overrides.provider : undefined, request.baseUrl);
  // Started only once nothing before the try can throw: a bad cassette left the signal handlers installed.
  const progress = once(createProgress({ quiet: options.quiet }));
  const trap = trapStopSignals((signal) => process.stderr.write(`\nctxbench: ${signal}: stopping; the finished units are kept (again to quit at once)\n`));
  let recorded = false;
  let journaled = 0;
  // A shard of a run with a corpus: what each unit made of each of its logs, for merge (cli/shard-logs.ts).
  const shardLogs = request.shard !== undefined ? createShardLogsWriter(out, { redact: request.redact, resume: options.resume }) : undefined;
  try {
    const result = await runSuite({
      ...(options.retrySleep !== undefined && cassette === undefined ? { retrySleep: options.retrySleep } : {}),
      ...runOptionsOf(request, cassette),
      workers: options.workers,
      // Every unit is journaled whole: a corpus's units stay in memory summary-only, and its reports read them back.
      summaryOnlyCorpus: true,
      ...(options.memo === false ? { memo: false } : {}),
      ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
      ...(options.maxRetryWaitMs !== undefined ? { maxRetryWaitMs: options.maxRetryWaitMs } : {}),
      announceWaits: !options.quiet,
      onUnit: progress.onUnit,
      ...(shardLogs !== undefined ? { onShardLog: shardLogs.add } : {}),
      signal: trap.signal,
      beforeUnits: async ({ units, fingerprint }) => {
        lock = lockOutDir(out);
        if (options.resume) {
          const previous = readJournal(out);
          if (previous.header.fingerprint !== fingerprint) {
            throw new InputError(
              { file: displayPath(journalPath(out)), line: 1, field: 'fingerprint' },
              'the scenarios, transcripts or ctxbench changed since this run started: its units cannot be joined with new ones; start the run again without --resume',
            );
          }
          journal = openJournal(out, undefined);
          return previous.units;
        }
        const left = countJournaled(out);
        if (left > 0 && !options.quiet)
          process.stderr.write(`ctxbench: ${givenPath(options.out)} held an unfinished run (${left} units journaled); starting over (--resume continues it)\n`);
        journal = openJournal(out, { fingerprint, planned: units.length, options: request as unknown as Record<string, unknown> });
        return undefined;
      },
      onUnitResult: (index, unit) => {
        journaled += 1;
        journal?.append(index, request.redact ? redactValue<UnitResult>(unit) : unit);
      },
    });
    progress.done();
    await cassette?.close(true);
    recorded = true;
    const shown = resultForWriting(result, request.redact);
    // The journal holds each unit as the reports show it (redacted unless --no-redact).
    const details = isCorpus(result.units) ? journalDetails(out) : undefined;
    // One format at a time, each file's units one at a time: a corpus's files are never all in memory together.
    const written: string[] = [];
    for (const name of request.reports ?? reporterNames())
      written.push(...(await writeReportFiles(out, renderReports(shown, [name], details), { redact: request.redact })));
    if (shardLogs !== undefined) written.push(...shardLogs.finish(result));
    if (result.partial === undefined) journal?.remove();
    markOutDir(out, written, { prune: true });
    // The terminal is a log: always redacted.
    if (!options.quiet) printSummary(request.redact ? shown : resultForWriting(result, true), written.length, givenPath(options.out), started);
    const stoppedBy = trap.stoppedBy();
    if (result.partial !== undefined && stoppedBy !== undefined)
      throw new InterruptedError(
        stoppedBy,
        `${describePartial(result.partial).replace('<out>', givenPath(options.out))} Reports written to ${givenPath(options.out)}/.`,
      );
    return result;
  } catch (error) {
    // A run that failed before any unit finished (an unusable live provider) leaves --out as it was.
    if (journaled === 0 && !(error instanceof InterruptedError)) journal?.remove();
    const stoppedBy = trap.stoppedBy();
    // Stopped before the units ran (the live preflight aborted): nothing to report.
    if (stoppedBy !== undefined && !(error instanceof HarnessError))
      throw new InterruptedError(stoppedBy, `stopped by ${stoppedBy} before any unit ran; nothing written`);
    throw error;
  } finally {
    shardLogs?.abort();
    if (!recorded) await cassette?.close(false);
    progress.done();
    trap.dispose();
    lock?.release();
  }
}

/** The progress display, whose `done` ends it once, whether the run ended or failed. */
function once(progress: ReturnType<typeof createProgress>): ReturnType<typeof createProgress> {
  let ended = false;
  return {
    onUnit: progress.onUnit,
    done: () => {
      if (!ended) progress.done();
      ended = true;
    },
  };
}

function runOptionsOf(request: RunRequest, cassette: CassetteSession | undefined): RunOptions {
  return {
    scenarios: request.scenarios,
    mode: request.mode,
    overrides: request.overrides,
    ...(request.baseUrl !== undefined ? { baseUrl: request.baseUrl } : {}),
    ...(request.shard !== undefined ? { shard: request.shard } : {}),
    ...(request.decision !== undefined ? { decision: request.decision } : {}),
    ...(request.set !== undefined ? { specsOf: specsWithSettings(parseSettings(request.set)) } : {}),
    // A recording must see every request, and a replay must not be answered from elsewhere.
    ...(request.cacheDir !== undefined && cassette === undefined ? { cacheDir: request.cacheDir } : {}),
    ...cassette?.runOptions,
  };
}

function printSummary(given: RunResult, files: number, out: string, started: number): void {
  // Names and reasons come from transcripts: escaped before the table adds colours of its own.
  const result = escapeControlDeep(given);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const shard =
    result.shard === undefined ? '' : ` · shard ${result.shard.index}/${result.shard.count} (${result.units.length} of ${result.shard.planned} units)`;
  process.stdout.write(`ctxbench ${result.tool.version} · ${describeSeed(result)} · ${result.mode} providers${shard}\n\n`);
  if (result.recommendation !== undefined)
    process.stdout.write(`${renderTerminalRecommendation(result.recommendation, { color: useColor(process.stdout) })}\n`);
  process.stdout.write(renderTerminalTable(result, { color: useColor(process.stdout), width: process.stdout.columns ?? 120 }));
  const notes = [describeSkipped(result), result.partial !== undefined ? describePartial(result.partial).replace('<out>', out) : undefined];
  for (const note of notes) if (note !== undefined) process.stdout.write(`\n${note}\n`);
  process.stdout.write(`\n${result.units.length} runs in ${seconds} s · wrote ${files} files to ${out}/\n`);
}
