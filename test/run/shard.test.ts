import { describe, expect, it } from 'vitest';
import { checkShards, describeShard, joinShards, mergeShards, parseShard, selectShard, shardLogs, type ShardFile } from '../../src/run/shard.js';
import { scenarioKey, type PlannedUnit } from '../../src/run/plan.js';
import { runSuite } from '../../src/run/run-suite.js';
import { renderJson } from '../../src/report/json.js';
import { renderReports } from '../../src/report/index.js';
import type { RunResult } from '../../src/metrics/types.js';
import { writeFiles } from '../helpers/temp.js';

describe('parseShard', () => {
  it.each([
    ['1/1', { index: 1, count: 1 }],
    ['2/3', { index: 2, count: 3 }],
    [' 3 / 3 ', { index: 3, count: 3 }],
  ])('%s', (text, expected) => {
    expect(parseShard(text)).toEqual(expected);
  });

  it.each(['0/3', '4/3', '1/0', '1', '1/2/3', 'a/b', '-1/2', '1.5/2'])('rejects %s', (text) => {
    expect(() => parseShard(text)).toThrow(/--shard expects i\/n with 1 ≤ i ≤ n/);
  });
});

describe('selectShard', () => {
  const units = Array.from({ length: 11 }, (_, index) => ({ index }) as PlannedUnit);

  it('deals the plan round robin: balanced, disjoint, complete and stable', () => {
    const shards = [1, 2, 3].map((index) => selectShard(units, { index, count: 3 }).map((u) => u.index));
    expect(shards).toEqual([
      [0, 3, 6, 9],
      [1, 4, 7, 10],
      [2, 5, 8],
    ]);
    expect(selectShard(units, { index: 1, count: 1 })).toEqual(units);
    const plan = units.map((u) => `s · full ${u.index}`);
    expect(describeShard({ index: 2, count: 3 }, plan, selectShard(units, { index: 2, count: 3 }))).toEqual({
      index: 2,
      count: 3,
      planned: 11,
      units: [1, 4, 7, 10],
      plan,
    });
  });
});

describe('selectShard of a run with a corpus', () => {
  const scenario = (file: string) => ({ file, overrides: {} });
  const units = [
    ...[0, 1, 2].map((index) => ({ index, scenario: scenario('/corpus.yaml') }) as PlannedUnit),
    ...[3, 4, 5, 6].map((index) => ({ index, scenario: scenario('/small.yaml') }) as PlannedUnit),
  ];
  const corpora = new Map([[scenarioKey(scenario('/corpus.yaml')), 30]]);

  it("puts every unit of a corpus in each shard and deals the others' units round robin", () => {
    const shards = [1, 2, 3].map((index) => selectShard(units, { index, count: 3 }, corpora).map((u) => u.index));
    expect(shards).toEqual([
      [0, 1, 2, 3, 6],
      [0, 1, 2, 4],
      [0, 1, 2, 5],
    ]);
  });

  it("deals a corpus's logs round robin, every log to one shard; a shard past the last log takes none and no unit of it", () => {
    expect([1, 2, 3, 4].map((index) => shardLogs(10, { index, count: 4 }))).toEqual([
      [0, 4, 8],
      [1, 5, 9],
      [2, 6],
      [3, 7],
    ]);
    expect(shardLogs(3, { index: 4, count: 4 })).toEqual([]);
    const few = new Map([[scenarioKey(scenario('/corpus.yaml')), 3]]);
    expect(selectShard(units, { index: 4, count: 4 }, few).map((u) => u.index)).toEqual([3]);
  });
});

describe('mergeShards', () => {
  const dir = writeFiles({
    's.yaml': [
      'name: small',
      'transcript:',
      '  generate: { steps: 12, seed: 2, dialect: openai, toolOutputTokens: 800, facts: 3 }',
      'provider: openai',
      'window: 9000',
      'seed: 2',
      // `full` lands in shard 1 only: the others' saving_vs_full must be computed again on merge.
      'strategies: [full, rolling-window, codex-rebuild, {label: rw2, strategy: rolling-window, options: {groups: 2}}]',
    ].join('\n'),
  });
  /** A result as it comes back from its file. */
  const roundTrip = (result: RunResult): RunResult => JSON.parse((renderJson(result)[0] as { contents: string }).contents) as RunResult;
  const shardsOf = async (count: number): Promise<ShardFile[]> => {
    const out: ShardFile[] = [];
    for (let index = 1; index <= count; index++)
      out.push({ file: `shard-${index}.json`, result: roundTrip(await runSuite({ scenarios: [dir], shard: { index, count } })) });
    return out;
  };

  it('joins 3 shards into exactly the unsharded result', async () => {
    const whole = renderJson(await runSuite({ scenarios: [dir] }))[0]?.contents;
    const shards = await shardsOf(3);
    const plan = ['small · full', 'small · rolling-window', 'small · codex-rebuild', 'small · rw2 (rolling-window) {"groups":2}'];
    expect(shards.map((s) => s.result.shard)).toEqual([
      { index: 1, count: 3, planned: 4, units: [0, 3], plan },
      { index: 2, count: 3, planned: 4, units: [1], plan },
      { index: 3, count: 3, planned: 4, units: [2], plan },
    ]);
    expect(shards[1]?.result.units[0]?.summary.saving_vs_full).toBeNull();
    expect(renderJson(mergeShards(shards))[0]?.contents).toBe(whole);
    expect(renderJson(mergeShards([...shards].reverse()))[0]?.contents).toBe(whole);
    // Checked apart, as `merge` does to let the shards' results go: the units kept whole, none of the results themselves.
    const checked = checkShards(shards);
    expect(checked.head.units).toEqual([]);
    expect([...checked.whole.keys()].sort()).toEqual([0, 1, 2, 3]);
    expect(Object.values(checked).some((value) => shards.some((shard) => shard.result === value))).toBe(false);
    expect(renderJson(joinShards(checked))[0]?.contents).toBe(whole);
  });

  it('renders the same CSV from the merged shards as from the run itself, where rounding twice would differ', async () => {
    const whole = await runSuite({ scenarios: [dir] });
    // A retention of 0.30724999 rounds to 0.3072 at once, and to 0.307250 → 0.3073 through result.json.
    for (const unit of whole.units) unit.summary.retention = 0.30724999;
    const csvOf = (result: RunResult): string => renderReports(result, ['csv']).find((f) => f.file === 'summary.csv')?.contents ?? '';
    const stored = (shard: RunResult): RunResult =>
      roundTrip({ ...shard, units: shard.units.map((u) => ({ ...u, summary: { ...u.summary, retention: 0.30724999 } })) });
    const shards: ShardFile[] = [];
    for (let index = 1; index <= 3; index++)
      shards.push({ file: `shard-${index}.json`, result: stored(await runSuite({ scenarios: [dir], shard: { index, count: 3 } })) });
    expect(csvOf(whole)).toContain(',0.3073,');
    expect(csvOf(mergeShards(shards))).toBe(csvOf(whole));
  });

  it('refuses shards that do not make one whole run', async () => {
    const [a, b, c] = (await shardsOf(3)) as [ShardFile, ShardFile, ShardFile];
    expect(() => mergeShards([a, b])).toThrow(/missing shard 3\/3 of a run split in 3/);
    expect(() => mergeShards([a, b, c, { ...b, file: 'again.json' }])).toThrow(
      /again\.json \(field shard\.index\): shard 2\/3 is given twice \(also shard-2\.json\)/,
    );
    expect(() => mergeShards([a, b, { ...c, result: { ...c.result, seed: 9 } }])).toThrow(
      /shard-3\.json \(field seed\): is not a shard of the same run: 9, not 42/,
    );
    expect(() => mergeShards([a, b, { ...c, result: { ...c.result, tool: { name: 'ctxbench', version: '9.9.9' } } }])).toThrow(/field tool\.version/);
    expect(() => mergeShards([a, b, { ...c, result: { ...c.result, scenarios: [] } }])).toThrow(
      /field scenarios\): is not a shard of the same run: different scenarios/,
    );
    const { shard: _shard, ...whole } = c.result;
    expect(() => mergeShards([a, b, { ...c, result: whole }])).toThrow(/shard-3\.json \(field shard\): is not a shard result/);
    const overlapping = { ...c, result: { ...c.result, shard: { ...c.result.shard!, units: [1] } } };
    expect(() => mergeShards([a, b, overlapping])).toThrow(/unit 1 is also in another shard/);
    const short = { ...c, result: { ...c.result, shard: { ...c.result.shard!, units: [] } } };
    expect(() => mergeShards([a, b, short])).toThrow(/lists 0 units but holds 1/);
    const gap = { ...c, result: { ...c.result, units: [], shard: { ...c.result.shard!, units: [] } } };
    expect(() => mergeShards([a, b, gap])).toThrow(/units missing from every shard: 2/);
    expect(() => mergeShards([])).toThrow(/at least one/);
  });

  it('refuses shards of runs with other strategies or other options, naming the first unit that differs', async () => {
    const [a, b] = (await shardsOf(2)) as [ShardFile, ShardFile];
    const withPlan = (plan: string[] | undefined): ShardFile => ({ ...b, result: { ...b.result, shard: { ...b.result.shard!, plan } } as RunResult });
    const plan = b.result.shard!.plan!;
    expect(() => mergeShards([a, withPlan([plan[0]!, 'small · gatekeeper', ...plan.slice(2)])])).toThrow(
      /shard-2\.json \(field shard\.plan\.1\): is not a shard of the same run: plan unit 2 is "small · gatekeeper", not "small · rolling-window" as in shard-1\.json/,
    );
    expect(() => mergeShards([a, withPlan([...plan.slice(0, 3), 'small · rw2 (rolling-window) {"groups":1}'])])).toThrow(
      /plan unit 4 is "small · rw2 \(rolling-window\) \{"groups":1\}", not "small · rw2 \(rolling-window\) \{"groups":2\}"/,
    );
    expect(() => mergeShards([a, withPlan(undefined)])).toThrow(/shard-2\.json \(field shard\.plan\): records no plan/);
  });
});
