import { RESULT_SCHEMA_VERSION, type RunResult, type ShardInfo, type UnitResult } from '../metrics/types.js';
import type { PairedStep } from '../metrics/intervals.js';
import { isCorpus } from '../metrics/corpus.js';
import type { PlannedUnit } from './plan.js';
import type { StrategySpec } from '../strategies/types.js';
import { applySavingVsFull, type SavingInput } from '../metrics/summarize.js';
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
 * suite always splits the same way.
 */
export function selectShard(units: readonly PlannedUnit[], shard: ShardSpec): PlannedUnit[] {
  return units.filter((unit) => unit.index % shard.count === shard.index - 1);
}

/** What a shard's result records about itself: its place and the whole plan (`planEntry` of each planned unit). */
export function describeShard(shard: ShardSpec, plan: readonly string[], units: readonly PlannedUnit[]): ShardInfo {
  return { index: shard.index, count: shard.count, planned: plan.length, units: units.map((unit) => unit.index), plan: [...plan] };
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
  /**
   * The steps of the shard's unit at `position` as the pairing with `full` reads them, when its
   * result stores it summary-only (a corpus's, result schema 2): read back from the shard's
   * `steps.parquet` (cli/shard-steps.ts).
   */
  pairedStepsOf?: (position: number) => readonly PairedStep[];
}

/**
 * Joins the results of the shards of one run into the result the unsharded run would have
 * given: units in plan order, `saving_vs_full` computed again across all of them (a shard may not
 * hold its scenario's `full` unit), the recommendation made over all of them, no `shard` field. Refuses (InputError, exit 2) results that
 * are not shards of the same run (tool version, seed, mode, scenarios, shard count), a shard given
 * twice, a missing shard, and a unit missing or present twice.
 */
export function mergeShards(files: readonly ShardFile[], decision?: DecisionOptions): RunResult {
  const first = files[0];
  if (first === undefined) throw new UsageError('merge needs at least one shard result');
  const shards = files.map(shardOf);
  const reference = shards[0] as ShardInfo;
  files.forEach((file, i) => assertSameRun(first, file, reference, shards[i] as ShardInfo));
  assertEveryShard(files, shards);
  const byIndex = new Map<number, { unit: UnitResult; steps: () => readonly PairedStep[] }>();
  files.forEach(({ file, result, pairedStepsOf }, i) => {
    (shards[i] as ShardInfo).units.forEach((planIndex, position) => {
      if (byIndex.has(planIndex)) throw new InputError({ file, field: 'shard.units' }, `unit ${planIndex} is also in another shard`);
      const unit = result.units[position];
      if (unit === undefined)
        throw new InputError({ file, field: 'units' }, `holds ${result.units.length} units but shard.units lists ${position + 1} or more`);
      byIndex.set(planIndex, { unit, steps: () => (isCorpus([unit]) && pairedStepsOf !== undefined ? pairedStepsOf(position) : unit.steps) });
    });
  });
  const missing = range(reference.planned).filter((i) => !byIndex.has(i));
  if (missing.length > 0) throw new InputError({ file: first.file, field: 'shard' }, `units missing from every shard: ${missing.join(', ')}`);
  const { shard: _shard, ...rest } = first.result;
  const units = pairWithFull(range(reference.planned).map((i) => byIndex.get(i) as { unit: UnitResult; steps: () => readonly PairedStep[] }));
  return {
    ...rest,
    ...(rest.schemaVersion !== RESULT_SCHEMA_VERSION ? { schemaVersion: RESULT_SCHEMA_VERSION } : {}),
    units,
    recommendation: recommendRun(units, decision, rest.scenarios),
  };
}

/**
 * `saving_vs_full`, `cost_vs_full` and their intervals over the merged units. A summary-only unit
 * (a corpus's) is paired on its steps read back; its answers and needed uses are not in its result,
 * but its recall and needed-recall intervals do not depend on `full`: the shard's are kept.
 */
function pairWithFull(units: readonly { unit: UnitResult; steps: () => readonly PairedStep[] }[]): UnitResult[] {
  const paired = applySavingVsFull(units.map(({ unit, steps }): SavingInput => ({ ...unit, steps: steps() })));
  return units.map(({ unit }, i) => {
    const summary = (paired[i] as SavingInput).summary;
    if (!isCorpus([unit])) return { ...unit, summary };
    const own = unit.summary;
    return {
      ...unit,
      summary: {
        ...summary,
        answer_recall_ci_low: own.answer_recall_ci_low,
        answer_recall_ci_high: own.answer_recall_ci_high,
        needed_recall_ci_low: own.needed_recall_ci_low,
        needed_recall_ci_high: own.needed_recall_ci_high,
      },
    };
  });
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
    ['scenarios', JSON.stringify(first.result.scenarios), JSON.stringify(other.result.scenarios)],
  ];
  assertSamePlan(first, other, reference, shard);
  for (const [field, expected, actual] of checks) {
    if (expected === actual) continue;
    const shown = field === 'scenarios' ? 'different scenarios' : `${String(actual)}, not ${String(expected)} as in ${first.file}`;
    throw new InputError({ file: other.file, field }, `is not a shard of the same run: ${shown}`);
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
