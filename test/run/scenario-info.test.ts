import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { corpusDigest, scenarioInfo } from '../../src/run/scenario-info.js';
import { prepareScenarios } from '../../src/run/run-suite.js';
import { shortCorpus } from '../helpers/short-corpus.js';

describe('scenarioInfo of a corpus of logs one file each', () => {
  it("has for digest its files' digests hashed, one hex line each, and counts every log whatever was read", async () => {
    const files = [{ sha256: 'a'.repeat(64) }, { sha256: 'b'.repeat(64) }];
    expect(corpusDigest(files)).toBe(
      createHash('sha256')
        .update(`${'a'.repeat(64)}\n${'b'.repeat(64)}\n`)
        .digest('hex'),
    );
    expect(corpusDigest(files)).not.toBe(corpusDigest([...files].reverse()));
    const scenario = shortCorpus();
    const [whole] = await prepareScenarios([scenario], {}, { deferGenerated: true });
    const [shard] = await prepareScenarios([scenario], {}, { deferGenerated: true, shard: { index: 1, count: 4 } });
    const info = (p: typeof whole) =>
      scenarioInfo(
        p!.scenario,
        p!.logs!.map((log) => log.transcript),
        { corpus: { files: p!.corpusFiles! } },
      );
    const [all, own] = [info(whole), info(shard)];
    expect(all.logFilesSha256).toBe(corpusDigest(whole!.corpusFiles!));
    expect(own.logFilesSha256).toBe(all.logFilesSha256);
    expect(all.transcriptSha256).toBeUndefined();
    expect([own.logs, all.logs]).toEqual([26, 26]);
    // A shard's steps are its own logs' (1, 5, …, 25 of 26: 7 logs): what merge adds up.
    const steps = whole!
      .logs!.filter((_, i) => i % 4 === 0)
      .reduce((n, log) => n + log.transcript.events.filter((e) => e.type === 'message' && e.role === 'assistant').length, 0);
    expect(own.steps).toBe(steps);
    expect(own.steps).toBeLessThan(all.steps);
  });
});
