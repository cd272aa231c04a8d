import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashCorpusFiles, isFileCorpus, logsToRead } from '../../src/run/corpus-files.js';
import { prepareScenarios } from '../../src/run/run-suite.js';
import { fingerprintRun } from '../../src/run/journal.js';
import { InputError } from '../../src/errors.js';
import { CORPUS_LOGS } from '../../src/metrics/corpus.js';
import { shortCorpus } from '../helpers/short-corpus.js';

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The corpus's log files, in order, and its scenario. */
function corpus(): { scenario: string; files: string[] } {
  const scenario = shortCorpus();
  const logs = join(dirname(scenario), 'logs');
  return {
    scenario,
    files: readdirSync(logs)
      .sort()
      .map((name) => join(logs, name)),
  };
}

describe('a corpus of logs one file each', () => {
  it('is more than CORPUS_LOGS files without sidechains', () => {
    const files = Array.from({ length: CORPUS_LOGS + 1 }, (_, i) => `${i}.json`);
    expect(isFileCorpus(files, false)).toBe(true);
    expect(isFileCorpus(files, true)).toBe(false);
    expect(isFileCorpus(files.slice(1), false)).toBe(false);
  });

  it('is read by a shard at its own logs and the first, whose header resolves the scenario', () => {
    expect(logsToRead(10, { index: 2, count: 4 })).toEqual([0, 1, 5, 9]);
    expect(logsToRead(10, { index: 1, count: 4 })).toEqual([0, 4, 8]);
    expect(logsToRead(3, undefined)).toEqual([0, 1, 2]);
  });

  it('hashes each file; one that cannot be read is bad input naming it', async () => {
    const { files } = corpus();
    expect((await hashCorpusFiles(files.slice(0, 2))).map((f) => f.sha256)).toEqual(files.slice(0, 2).map(sha256));
    const missing = join(dirname(files[0] as string), 'gone.json');
    const error = await hashCorpusFiles([missing]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(String((error as Error).message)).toMatch(/gone\.json.*cannot read log: ENOENT/);
  });

  it("a shard parses none of the others' logs: one that is not a log stops only the shard that replays it, and the unsharded run", async () => {
    const { scenario, files } = corpus();
    // Log 3 (index 2) is shard 3/4's; shard 2/4 reads logs 2 and every fourth after it, and log 1 (index 0).
    // A log as listing finds it (the folder's logs are those import reads) that importing refuses:
    const broken = JSON.parse(readFileSync(files[2] as string, 'utf8')) as { messages: { role: string }[] };
    (broken.messages[1] as { role: string }).role = 'bogus';
    writeFileSync(files[2] as string, JSON.stringify(broken));
    const [prepared] = await prepareScenarios([scenario], {}, { deferGenerated: true, shard: { index: 2, count: 4 } });
    expect(prepared?.logs?.map((log) => log.index)).toEqual([1, 5, 9, 13, 17, 21, 25]);
    expect(prepared?.corpusLogs).toBe(files.length);
    expect(prepared?.corpusFiles).toEqual(files.map((file) => ({ file, sha256: sha256(file) })));
    // The first log, read though another shard's, resolves the scenario.
    const [whole] = await prepareScenarios([corpus().scenario], {}, { deferGenerated: true });
    expect(prepared?.transcript.header.id).toBe(whole?.transcript.header.id);
    await expect(prepareScenarios([scenario], {}, { deferGenerated: true, shard: { index: 3, count: 4 } })).rejects.toThrow(/02-django.*messages\.1\.role/);
    await expect(prepareScenarios([scenario], {}, { deferGenerated: true })).rejects.toThrow(/02-django.*messages\.1\.role/);
  });

  it("a shard's fingerprint (what --resume checks) changes with the bytes of a log it did not read", async () => {
    const { scenario, files } = corpus();
    const shard = { index: 2, count: 4 };
    const fingerprint = async (): Promise<string> => fingerprintRun(await prepareScenarios([scenario], {}, { deferGenerated: true, shard }), [], 'mock');
    const before = await fingerprint();
    expect(await fingerprint()).toBe(before);
    writeFileSync(files[2] as string, `${readFileSync(files[2] as string, 'utf8')}\n`);
    expect(await fingerprint()).not.toBe(before);
  });
});
