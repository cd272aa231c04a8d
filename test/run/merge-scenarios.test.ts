import { describe, expect, it } from 'vitest';
import { mergeScenarios } from '../../src/run/merge-scenarios.js';
import type { RunResult, ScenarioInfo } from '../../src/metrics/types.js';
import type { ShardCorpus, ShardInfo } from '../../src/metrics/shard-info.js';

const info = (name: string, steps: number, skippedLines: number): ScenarioInfo =>
  ({ name, file: `${name}.yaml`, transcript: 'logs', logFilesSha256: 'd'.repeat(64), steps, seed: 1, skippedLines, logs: 30 }) as unknown as ScenarioInfo;

const corpus = (index: number, changes: Partial<ShardCorpus> = {}): ShardCorpus => ({
  scenario: 'c',
  units: [0],
  logs: [],
  taken: [index - 1],
  figures: 'taken',
  ...changes,
});

/** A shard whose result records `scenarios` (another scenario "s" then the corpus "c" by default) and `corpora`. */
function shard(index: number, scenarios: ScenarioInfo[], corpora: ShardCorpus[] = [corpus(index)]): { file: string; result: RunResult; shard: ShardInfo } {
  const info: ShardInfo = { index, count: 2, planned: 1, units: [0], plan: ['c · full'], corpora };
  return { file: `shard-${index}/result.json`, result: { scenarios, shard: info } as unknown as RunResult, shard: info };
}

const merge = (shards: ReturnType<typeof shard>[]) =>
  mergeScenarios(
    shards,
    shards.map((s) => s.shard),
  );

describe('mergeScenarios', () => {
  it('adds up the steps and skipped lines each shard counted over its own logs of a corpus, the rest as every shard records it', () => {
    const other = info('s', 12, 1);
    const merged = merge([shard(1, [other, info('c', 40, 2)]), shard(2, [other, info('c', 35, 0)])]);
    expect(merged).toEqual([other, info('c', 75, 2)]);
    // The keys in the order the shards wrote them (the merged file is the unsharded run's byte for byte).
    expect(Object.keys(merged[1] as object)).toEqual(Object.keys(info('c', 0, 0)));
  });

  it('takes the scenarios as they are when no corpus counts its own logs', () => {
    const scenarios = [info('c', 75, 2)];
    const whole = (index: number) =>
      shard(
        index,
        scenarios,
        [corpus(index, { figures: undefined })].map(({ figures: _f, ...rest }) => rest),
      );
    expect(merge([whole(1), whole(2)])).toBe(scenarios);
  });

  it('refuses scenarios that differ other than in the figures of own logs', () => {
    const changed = { ...info('c', 35, 0), seed: 2 } as ScenarioInfo;
    expect(() => merge([shard(1, [info('c', 40, 2)]), shard(2, [changed])])).toThrow(
      /shard-2\/result\.json \(field scenarios\): is not a shard of the same run: different scenarios/,
    );
    // Nor are whole figures taken for own ones where the shards disagree on which they are.
    const whole = shard(
      2,
      [info('c', 35, 0)],
      [corpus(2, { figures: undefined })].map(({ figures: _f, ...rest }) => rest),
    );
    expect(() => merge([shard(1, [info('c', 40, 2)]), whole])).toThrow(
      /shard-2\/result\.json \(field shard\.corpora\.0\.figures\): .*corpus "c" counts the steps of every log, the steps of the shard's own logs in shard-1\/result\.json/,
    );
  });

  it('refuses a corpus with no scenario of its name, and a figure that is not a count', () => {
    expect(() => merge([shard(1, [info('x', 40, 2)]), shard(2, [info('x', 35, 0)])])).toThrow(
      /shard-1\/result\.json \(field scenarios\): records no scenario "c", a corpus of shard\.corpora\.0/,
    );
    const broken = { ...info('c', 35, 0), skippedLines: -1 } as ScenarioInfo;
    expect(() => merge([shard(1, [info('c', 40, 2)]), shard(2, [broken])])).toThrow(
      /shard-2\/result\.json \(field scenarios\.0\.skippedLines\): is -1, not a count/,
    );
  });
});
