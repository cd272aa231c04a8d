import { describe, expect, it } from 'vitest';
import { mergeCorpora, type CorpusShard } from '../../src/run/merge-corpora.js';
import { packLogResult } from '../../src/run/corpus-units.js';
import { createLogCombiner } from '../../src/run/combine-logs.js';
import { runSuite } from '../../src/run/run-suite.js';
import type { UnitResult } from '../../src/metrics/types.js';
import type { ShardCorpus } from '../../src/metrics/shard-info.js';
import { writeFiles } from '../helpers/temp.js';

const LOGS = Array.from({ length: 4 }, (_, i) => ({ transcript: `logs/${i}.json`, sha256: String(i).repeat(64) }));

/** A shard of a 4-log corpus of two units that took `taken`; `read` answers with `results[log][unit]`. */
function shard(file: string, taken: number[], changes: Partial<ShardCorpus> = {}, results?: Uint8Array[][]): CorpusShard {
  return {
    file,
    corpora: [{ scenario: 'c', units: [0, 1], logs: LOGS, taken, ...changes }],
    logs: {
      file: `${file}/shard-logs.json`,
      corpora: [{ scenario: 'c', logs: taken.map((index) => ({ index, id: `log-${index}` })) }],
      read: (_corpus, log, unit) => {
        const bytes = results?.[taken[log] as number]?.[unit];
        if (bytes === undefined) throw new Error(`read log ${log} unit ${unit}`);
        return bytes;
      },
    },
  };
}

describe('mergeCorpora', () => {
  it("combines each unit from every shard's logs in log order, as an unsharded run combines it", async () => {
    const dir = writeFiles({
      's.yaml':
        'name: s\ntranscript:\n  generate: { steps: 6, seed: 2, dialect: openai, toolOutputTokens: 400 }\nprovider: openai\nstrategies: [full, rolling-window]\n',
    });
    const [full, rolling] = (await runSuite({ scenarios: [dir] })).units as [UnitResult, UnitResult];
    const results = LOGS.map(() => [packLogResult(full), packLogResult(rolling)]);
    const [merged] = mergeCorpora([shard('b', [1, 3], {}, results), shard('a', [0, 2], {}, results)]);
    const expected = createLogCombiner('.');
    for (const [i, log] of LOGS.entries()) expected.add({ log: { file: log.transcript, transcript: { header: { id: `log-${i}` } } }, result: rolling });
    const combined = merged?.combine(1);
    expect(combined?.logs?.map((log) => [log.id, log.transcript, log.firstStep])).toEqual(
      LOGS.map((log, i) => [`log-${i}`, log.transcript, i * full.summary.steps]),
    );
    expect(JSON.stringify(combined)).toBe(JSON.stringify(expected.finish()));
    // A result that does not unpack names the shard's file and the field.
    const broken = LOGS.map(() => [new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])]);
    expect(() => mergeCorpora([shard('a', [0, 2], {}, broken), shard('b', [1, 3], {}, broken)])[0]?.combine(0)).toThrow(
      /a\/shard-logs\.json \(field corpora\.0\.logs\.0\.results\.0\): not a packed log result/,
    );
  });

  it('refuses a log taken twice or by no shard, naming the log', () => {
    expect(() => mergeCorpora([shard('a', [0, 2]), shard('b', [1, 2, 3])])).toThrow(
      /b \(field shard\.corpora\.0\.taken\.1\): log 3 of corpus "c" \(logs\/2\.json\) is also in a/,
    );
    expect(() => mergeCorpora([shard('a', [0, 2]), shard('b', [1])])).toThrow(
      /a \(field shard\.corpora\.0\): logs of corpus "c" missing from every shard: 4 \(logs\/3\.json\)/,
    );
  });

  it("refuses a log whose content differs between shards (its transcript's SHA-256), another log list, or other units", () => {
    const other = LOGS.map((log, i) => (i === 1 ? { ...log, sha256: 'f'.repeat(64) } : log));
    expect(() => mergeCorpora([shard('a', [0, 2]), shard('b', [1, 3], { logs: other })])).toThrow(
      /b \(field shard\.corpora\.0\.logs\.1\.sha256\): log 2 \(logs\/1\.json\) is not the log a read: sha256 ffffffffffff…, not 111111111111…/,
    );
    const renamed = LOGS.map((log, i) => (i === 3 ? { ...log, transcript: 'logs/x.json' } : log));
    expect(() => mergeCorpora([shard('a', [0, 2]), shard('b', [1, 3], { logs: renamed })])).toThrow(
      /field shard\.corpora\.0\.logs\.3\.transcript\): log 4 is logs\/x\.json, not logs\/3\.json as in a/,
    );
    expect(() => mergeCorpora([shard('a', [0, 2]), shard('b', [1, 3], { logs: LOGS.slice(0, 3) })])).toThrow(/corpus "c" has 3 logs, 4 in a/);
    expect(() => mergeCorpora([shard('a', [0, 2]), shard('b', [1, 3], { units: [0] })])).toThrow(
      /b \(field shard\.corpora\.0\): is not a shard of the same run/,
    );
  });

  it('refuses a shard that took logs but brings none of them, or other logs than it took', () => {
    expect(() => mergeCorpora([shard('a', [0, 2]), { ...shard('b', [1, 3]), logs: undefined }])).toThrow(
      /b \(field shard\.corpora\.0\.taken\): took logs of a corpus, but merge was given none of them/,
    );
    const short = shard('b', [1, 3]);
    const logs = { ...(short.logs as NonNullable<CorpusShard['logs']>), corpora: [{ scenario: 'c', logs: [{ index: 1, id: 'log-1' }] }] };
    expect(() => mergeCorpora([shard('a', [0, 2]), { ...short, logs }])).toThrow(
      /b\/shard-logs\.json \(field corpora\.0\.logs\): holds other logs than b took/,
    );
  });
});
