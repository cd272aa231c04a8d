import { beforeAll, describe, expect, it } from 'vitest';
import { cpSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../helpers/temp.js';
import { shortCorpus } from '../helpers/short-corpus.js';
import { cli } from '../helpers/cli.js';

/** A copy of a shard's folder, changed by `change`, and its result.json. */
function changed(shard: string, change: (folder: string) => void): string {
  const folder = join(tempDir(), 'shard');
  cpSync(shard, folder, { recursive: true });
  change(folder);
  return join(folder, 'result.json');
}

const merge = (results: string[]) => cli(['merge', ...results, '-o', tempDir(), '--quiet']);

describe('merge of a corpus run in two shards', () => {
  let corpus: string;
  const shards: string[] = [];
  beforeAll(async () => {
    corpus = dirname(shortCorpus());
    for (const i of [1, 2]) {
      const out = tempDir();
      expect((await cli(['run', join(corpus, 'corpus.yaml'), '--out', out, '--shard', `${i}/2`, '--quiet', '--workers', '1'])).code).toBe(0);
      shards.push(out);
    }
  }, 300_000);
  const results = () => shards.map((shard) => join(shard, 'result.json'));

  it('merges them, and refuses a shard given twice or missing as any merge does', async () => {
    expect((await merge(results())).code).toBe(0);
    expect(await merge([...results(), changed(shards[1] as string, () => undefined)])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/\(field shard\.index\): shard 2\/2 is given twice/),
    });
    expect((await merge([results()[0] as string])).stderr).toMatch(/missing shard 2\/2 of a run split in 2/);
  });

  it("refuses a shard whose logs' files are missing, of another version or cut short, naming the file and field", async () => {
    const [first, second] = shards as [string, string];
    const without = changed(second, (folder) => rmSync(join(folder, 'shard-logs.json')));
    expect(await merge([join(first, 'result.json'), without])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/shard\/shard-logs\.json: missing: .*result\.json took logs of a corpus/),
    });
    const version = changed(second, (folder) => {
      const file = join(folder, 'shard-logs.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace('"version":1', '"version":7'));
    });
    expect((await merge([join(first, 'result.json'), version])).stderr).toMatch(
      /shard-logs\.json \(field version\): is shard-logs version 7; this ctxbench reads version 1/,
    );
    const cut = changed(second, (folder) => truncateSync(join(folder, 'shard-logs.bin'), 100));
    expect((await merge([join(first, 'result.json'), cut])).stderr).toMatch(
      /shard-logs\.json \(field corpora\.0\.logs\.\d+\.results\.\d\): lies past the end of .*shard-logs\.bin \(100 bytes\): the file is cut short/,
    );
    const other = changed(second, (folder) => {
      const file = join(folder, 'shard-logs.json');
      writeFileSync(file, readFileSync(file, 'utf8').replace('"shard":{"index":2', '"shard":{"index":1'));
    });
    expect((await merge([join(first, 'result.json'), other])).stderr).toMatch(
      /shard-logs\.json \(field shard\): is of shard 1\/2, not of .*result\.json's 2\/2/,
    );
  });

  it("shards a suite of a corpus and another scenario, the corpus by log and the other's units round robin, and merges it byte for byte", async () => {
    const other = join(tempDir(), 'tiny.yaml');
    writeFileSync(
      other,
      'name: tiny\ntranscript:\n  generate: { steps: 8, seed: 3, dialect: openai, toolOutputTokens: 600, facts: 2 }\nprovider: openai\nwindow: 9000\nstrategies: [full, rolling-window, codex-rebuild]\n',
    );
    const suite = [join(corpus, 'corpus.yaml'), other];
    const whole = tempDir();
    expect((await cli(['run', ...suite, '--out', whole, '--quiet', '--workers', '1'])).code).toBe(0);
    const parts: string[] = [];
    for (const i of [1, 2]) {
      const out = tempDir();
      expect((await cli(['run', ...suite, '--out', out, '--shard', `${i}/2`, '--quiet', '--workers', '2'])).code).toBe(0);
      const shard = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { shard: { units: number[] } };
      // The corpus's units 0 and 1 in both shards; tiny's units 2, 3, 4 dealt round robin.
      expect(shard.shard.units).toEqual(i === 1 ? [0, 1, 2, 4] : [0, 1, 3]);
      parts.push(join(out, 'result.json'));
    }
    const merged = tempDir();
    expect((await cli(['merge', ...parts, '-o', merged, '--quiet'])).code).toBe(0);
    const files = readdirSync(whole).filter((file) => !file.startsWith('.'));
    expect(files.length).toBe(10);
    for (const file of files) expect({ file, same: readFileSync(join(merged, file)).equals(readFileSync(join(whole, file))) }).toEqual({ file, same: true });
  });

  it('refuses a shard that read another copy of a log, naming the log', async () => {
    const copy = join(tempDir(), 'corpus');
    cpSync(corpus, copy, { recursive: true });
    const log = join(copy, 'logs', readdirSync(join(copy, 'logs')).sort()[3] as string);
    const trajectory = JSON.parse(readFileSync(log, 'utf8')) as { messages: { content: string }[] };
    (trajectory.messages[1] as { content: string }).content += ' (edited)';
    writeFileSync(log, JSON.stringify(trajectory));
    const out = tempDir();
    expect((await cli(['run', join(copy, 'corpus.yaml'), '--out', out, '--shard', '2/2', '--quiet', '--workers', '1'])).code).toBe(0);
    expect(await merge([results()[0] as string, join(out, 'result.json')])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /result\.json \(field shard\.corpora\.0\.logs\.3\.sha256\): log 4 \(logs\/03-django__django-10999\.traj\.json\) is not the log .* read/,
      ),
    });
  });
}, 600_000);
