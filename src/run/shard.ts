import { RESULT_SCHEMA_VERSION, type RunResult, type UnitResult } from '../metrics/types.js';
import type { ShardCorpus, ShardInfo } from '../metrics/shard-info.js';
import { isCorpus } from '../metrics/corpus.js';
import { scenarioKey, type PlannedUnit } from './plan.js';
import type { StrategySpec } from '../strategies/types.js';
import { FinishedUnits } from './finished-units.js';
import { mergeCorpora, type MergedCorpus, type ShardLogs } from './merge-corpora.js';
import { mergeScenarios } from './merge-scenarios.js';
import type { DecisionOptions } from '../metrics/recommend.js';
import { recommendRun } from './recommend-run.js';
import { InputError, UsageError } from '../errors.js';

/** `--shard i/n`: the i-th (1-based) of n slices of a run's plan. */
export interface ShardSpec {
  index: number;
  count: number;
}

/** Parses `i/n` (1 ≤ i ≤ n); anything else is a usage error naming the flag. */
export function parseShard(text: string, flag = '--shard'): ShardSpec {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count) {
    throw new UsageError(`${flag} expects i/n with 1 ≤ i ≤ n (e.g. 2/3), got "${text}"`);
  }
  return { index, count };
}

/**
 * The units of shard `i/n`: every n-th unit of the plan, starting at plan index i − 1. Round robin
 * keeps shards within one unit of each other in size and spreads each scenario (short and long
 * transcripts alike) over all shards; a unit's shard depends only on its plan index, so the same
 * suite always splits the same way. A corpus (`corpora`: its scenario's key, run/plan.ts
 * `scenarioKey`, and its count of logs) is dealt by log instead (`shardLogs`): its every unit is in
 * each shard that takes one of its logs or more.
 */
export function selectShard(units: readonly PlannedUnit[], shard: ShardSpec, corpora: ReadonlyMap<string, number> = new Map()): PlannedUnit[] {
  return units.filter((unit) => {
    const logs = corpora.size === 0 ? undefined : corpora.get(scenarioKey(unit.scenario));
    return logs !== undefined ? shardLogs(logs, shard).length > 0 : unit.index % shard.count === shard.index - 1;
  });
}

/**
 * The logs of a corpus of `total` logs that shard `i/n` replays, by their places: every n-th from
 * i − 1, as units are dealt (a rule of the plan alone: shards of one run never disagree on it).
 */
export function shardLogs(total: number, shard: ShardSpec): number[] {
  const taken: number[] = [];
  for (let index = shard.index - 1; index < total; index += shard.count) taken.push(index);
  return taken;
}

/** What a shard's result records about itself: its place, the whole plan (`planEntry` of each planned unit) and the corpora it took by log. */
export function describeShard(shard: ShardSpec, plan: readonly string[], units: readonly PlannedUnit[], corpora: readonly ShardCorpus[] = []): ShardInfo {
  return {
    index: shard.index,
    count: shard.count,
    planned: plan.length,
    units: units.map((unit) => unit.index),
    plan: [...plan],
    ...(corpora.length > 0 ? { corpora: [...corpora] } : {}),
  };
}

/**
 * One planned unit as the shards of a run must agree on it: the scenario's name, the label, the
 * strategy (pipeline stages included) and its options as given. No path: a policy's file may be
 * elsewhere on the machine of another shard.
 */
export function planEntry(scenario: string, spec: StrategySpec): string {
  return `${scenario} · ${describeSpec(spec)}`;
}

function describeSpec(spec: StrategySpec): string {
  const name = spec.label === spec.strategy ? spec.label : `${spec.label} (${spec.strategy})`;
  const options = Object.keys(spec.options).length > 0 ? ` ${JSON.stringify(spec.options)}` : '';
  const stages = spec.stages !== undefined ? ` [${spec.stages.map(describeSpec).join(' → ')}]` : '';
  return `${name}${options}${stages}`;
}

/** A result read from a file, for messages that name the file. */
export interface ShardFile {
  file: string;
  result: RunResult;
  /** What the shard holds of the logs of its corpora (`shard.corpora`): read from the files beside its result (cli/shard-logs.ts). */
  logs?: ShardLogs;
}

export interface MergeOptions {
  /** What the recommendation is made under (default: metrics/recommend.ts DEFAULT_DECISION). */
  decision?: DecisionOptions;
  /**
   * Called with every unit of the run whole, in plan order, once the shards are found to make one
   * run: a corpus's each as it is combined from every shard's logs, before the merged result keeps
   * it summary-only (the CLI writes the rows of each as it comes, cli/step-files.ts), the others
   * as their shards hold them. Its summary is not yet paired with `full` (the result's is).
   */
  onUnit?: (index: number, unit: UnitResult) => void;
}

/**
 * Joins the results of the shards of one run into the result the unsharded run would have
 * given: units in plan order, `saving_vs_full` computed again across all of them (a shard may not
 * hold its scenario's `full` unit), the recommendation made over all of them, no `shard` field. A
 * corpus's units are combined from every shard's logs in log order (run/merge-corpora.ts), one at
 * a time, and kept summary-only as a run keeps them. Refuses (InputError, exit 2) results that
 * are not shards of the same run (tool version, seed, mode, scenarios, shard count, corpora and
 * their logs), a shard given twice, a missing shard, and a unit or a corpus's log missing or
 * present twice. `checkShards`, then `joinShards`.
 */
export function mergeShards(files: readonly ShardFile[], options: MergeOptions = {}): RunResult {
  return joinShards(checkShards(files), options);
}

/** The shards of one run checked (`checkShards`): what joining them reads, and none of their results but the units kept whole. */
export interface CheckedShards {
  /** The first shard's result without `shard` and with no units: what the merged result is made of but its units. */
  head: Omit<RunResult, 'shard'>;
  planned: number;
  scenarios: RunResult['scenarios'];
  corpora: readonly MergedCorpus[];
  /** The units of no corpus, by plan index, as their shards hold them. */
  whole: ReadonlyMap<number, UnitResult>;
}

/**
 * The checks of `mergeShards` (every refusal it makes but none of a corpus's packed results,
 * which `joinShards` unpacks), and what joining reads of the shards: a caller that lets go of
 * `files` then lets go of their corpora's stored units (a 477-log corpus's four shards held 10,000
 * log summaries the merge never reads).
 */
export function checkShards(files: readonly ShardFile[]): CheckedShards {
  const first = files[0];
  if (first === undefined) throw new UsageError('merge needs at least one shard result');
  const shards = files.map(shardOf);
  const reference = shards[0] as ShardInfo;
  files.forEach((file, i) => assertSameRun(first, file, reference, shards[i] as ShardInfo));
  assertEveryShard(files, shards);
  // The corpora's logs before the scenarios' digests, which differ too when a log does: this names the log.
  const corpora = mergeCorpora(files.map((file, i) => ({ file: file.file, corpora: (shards[i] as ShardInfo).corpora ?? [], logs: file.logs })));
  const scenarios = mergeScenarios(files, shards);
  const byLog = new Set(corpora.flatMap((corpus) => corpus.units));
  const whole = new Map<number, UnitResult>();
  files.forEach(({ file, result }, i) => {
    (shards[i] as ShardInfo).units.forEach((planIndex, position) => {
      if (byLog.has(planIndex)) return;
      if (whole.has(planIndex)) throw new InputError({ file, field: 'shard.units' }, `unit ${planIndex} is also in another shard`);
      const unit = result.units[position];
      if (unit === undefined)
        throw new InputError({ file, field: 'units' }, `holds ${result.units.length} units but shard.units lists ${position + 1} or more`);
      if (isSummaryOnly(unit))
        throw new InputError(
          { file, field: `units.${position}` },
          'holds a corpus unit summary-only without its logs (a shard by unit, written by an earlier ctxbench): run the shard again to merge it',
        );
      whole.set(planIndex, unit);
    });
  });
  const missing = range(reference.planned).filter((i) => !whole.has(i) && !byLog.has(i));
  if (missing.length > 0) throw new InputError({ file: first.file, field: 'shard' }, `units missing from every shard: ${missing.join(', ')}`);
  // Its units let go but their place kept: the merged result's keys are in the order of a shard's.
  const { shard: _shard, ...rest } = first.result;
  return { head: { ...rest, units: [] }, planned: reference.planned, scenarios, corpora, whole };
}

/** The merged result of shards `checkShards` found to make one run (`mergeShards`). */
export function joinShards({ head, planned, scenarios, corpora, whole }: CheckedShards, options: MergeOptions = {}): RunResult {
  const finished = new FinishedUnits(true);
  // Every unit in plan order, a corpus's combined at its place (one at a time: each is kept summary-only once handed on).
  const combined = new Map(corpora.flatMap((corpus) => corpus.units.map((index, position) => [index, () => corpus.combine(position)] as const)));
  for (let index = 0; index < planned; index++) {
    const combine = combined.get(index);
    const unit = combine !== undefined ? combine() : (whole.get(index) as UnitResult);
    options.onUnit?.(index, unit);
    finished.set(index, unit);
  }
  const units = finished.results(range(planned).map((index) => ({ index })));
  return {
    ...head,
    ...(head.schemaVersion !== RESULT_SCHEMA_VERSION ? { schemaVersion: RESULT_SCHEMA_VERSION } : {}),
    scenarios,
    units,
    recommendation: recommendRun(units, options.decision, scenarios),
  };
}

/** A corpus's unit as a result stores it (schema 2): its steps elsewhere. */
function isSummaryOnly(unit: UnitResult): boolean {
  return isCorpus([unit]) && unit.steps.length === 0 && unit.summary.steps_completed > 0;
}

function shardOf({ file, result }: ShardFile): ShardInfo {
  const shard = result.shard;
  if (shard === undefined)
    throw new InputError({ file, field: 'shard' }, 'is not a shard result (it has no `shard` field); only results of `run --shard i/n` can be merged');
  if (shard.units.length !== result.units.length) {
    throw new InputError({ file, field: 'shard.units' }, `lists ${shard.units.length} units but holds ${result.units.length}`);
  }
  return shard;
}

function assertSameRun(first: ShardFile, other: ShardFile, reference: ShardInfo, shard: ShardInfo): void {
  const checks: [string, unknown, unknown][] = [
    ['tool.version', first.result.tool.version, other.result.tool.version],
    ['seed', first.result.seed, other.result.seed],
    ['mode', first.result.mode, other.result.mode],
    ['shard.count', reference.count, shard.count],
    ['shard.planned', reference.planned, shard.planned],
  ];
  assertSamePlan(first, other, reference, shard);
  for (const [field, expected, actual] of checks) {
    if (expected !== actual)
      throw new InputError({ file: other.file, field }, `is not a shard of the same run: ${String(actual)}, not ${String(expected)} as in ${first.file}`);
  }
}

/** Shards of one run have one plan: the same strategies, labels and options for every unit. */
function assertSamePlan(first: ShardFile, other: ShardFile, reference: ShardInfo, shard: ShardInfo): void {
  for (const [file, info] of [
    [first.file, reference],
    [other.file, shard],
  ] as const) {
    if (info.plan === undefined)
      throw new InputError({ file, field: 'shard.plan' }, 'records no plan (written by an earlier ctxbench): run the shard again to merge it');
  }
  const expected = reference.plan as string[];
  const actual = shard.plan as string[];
  const at = range(Math.max(expected.length, actual.length)).find((i) => expected[i] !== actual[i]);
  if (at === undefined) return;
  const unit = (plan: string[]): string => (plan[at] === undefined ? 'no unit' : `"${plan[at]}"`);
  throw new InputError(
    { file: other.file, field: `shard.plan.${at}` },
    `is not a shard of the same run: plan unit ${at + 1} is ${unit(actual)}, not ${unit(expected)} as in ${first.file} (other strategies or --set)`,
  );
}

function assertEveryShard(files: readonly ShardFile[], shards: readonly ShardInfo[]): void {
  const seen = new Map<number, string>();
  shards.forEach((shard, i) => {
    const file = (files[i] as ShardFile).file;
    const earlier = seen.get(shard.index);
    if (earlier !== undefined) throw new InputError({ file, field: 'shard.index' }, `shard ${shard.index}/${shard.count} is given twice (also ${earlier})`);
    seen.set(shard.index, file);
  });
  const count = (shards[0] as ShardInfo).count;
  const missing = range(count)
    .map((i) => i + 1)
    .filter((index) => !seen.has(index));
  if (missing.length > 0) {
    throw new UsageError(`missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} of a run split in ${count}`);
  }
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
