import { describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { KNOWN_OUT_FILES, OUT_MARKER } from '../../src/cli/out-owner.js';

/**
 * fixtures/bad/artifacts/ (issue 35, "numbers a CI can trust"): inputs whose results or reports
 * could not be trusted, each refused with one line naming the file and the field (exit 2), or
 * flagged where the run can go on.
 */
const artifacts = resolve(import.meta.dirname, '../../fixtures/bad/artifacts');
const at = (path: string): string => join(artifacts, path);
const run = resolve(import.meta.dirname, '../../fixtures/bad/check/run-seed-1.json');
const tiny = resolve(import.meta.dirname, '../../fixtures/bad/flags/tiny.yaml');

/** A copy of fixtures/bad/artifacts/out/users-own: a folder of the user's own files (a run that wrote there would change the copy only). */
function usersFolder(): string {
  const dir = join(tempDir(), 'users-own');
  cpSync(at('out/users-own'), dir, { recursive: true });
  return dir;
}

/** Every file of `dir` with its text. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((file) => [file, readFileSync(join(dir, file), 'utf8')]));
}

interface Case {
  name: string;
  args: string[];
  code: number;
  /** What stderr must say. */
  message: RegExp;
}

const CASES: Case[] = [
  {
    name: 'merge of shards run with other strategies',
    args: ['merge', at('merge/three-strategies-shard-1-of-2.json'), at('merge/other-strategies-shard-2-of-2.json'), '--out', join(tempDir(), 'out')],
    code: 2,
    message:
      /other-strategies-shard-2-of-2\.json \(field shard\.plan\.1\): is not a shard of the same run: plan unit 2 is "tiny · gatekeeper", not "tiny · rolling-window" as in .*three-strategies-shard-1-of-2\.json/,
  },
  {
    name: 'merge of a shard run with --set rolling-window.groups=1 and a plain one',
    args: ['merge', at('merge/groups-1-shard-1-of-2.json'), at('merge/plain-shard-2-of-2.json'), '--out', join(tempDir(), 'out')],
    code: 2,
    message:
      /plain-shard-2-of-2\.json \(field shard\.plan\.1\): is not a shard of the same run: plan unit 2 is "tiny · rolling-window", not "tiny · rolling-window \{"groups":1\}"/,
  },
  {
    name: 'check against a baseline without units',
    args: ['check', run, '--baseline', at('check/no-units.json')],
    code: 2,
    message: /no-units\.json \(field units\): cannot be compared: holds no units/,
  },
  {
    name: 'check against a baseline with Infinity step tokens',
    args: ['check', run, '--baseline', at('check/infinite-step-tokens.json')],
    code: 2,
    message: /infinite-step-tokens\.json \(field units\.0\.steps\.1\.promptTokens\): cannot be compared: .*received Infinity/,
  },
  {
    name: 'check against a baseline whose answer_recall is "NaN"',
    args: ['check', run, '--baseline', at('check/nan-recall.json')],
    code: 2,
    message: /nan-recall\.json \(field units\.0\.summary\.answer_recall\): cannot be compared: .*expected number, received string/,
  },
  {
    name: 'check against a baseline whose unit lists no steps',
    args: ['check', run, '--baseline', at('check/no-steps.json')],
    code: 2,
    message: /no-steps\.json \(field units\.0\.steps\): cannot be compared: tiny × full completed 3 steps but lists none/,
  },
  {
    name: 'check --prices naming no model of the run (a warning; the check passes)',
    args: ['check', run, '--baseline', run, '--prices', at('check/prices-typo.yaml')],
    code: 0,
    message:
      /^ctxbench: warning: --prices names models that price no unit of the run or the baseline \(not used\): gemini-2\.5-flsh; their models: gemini-2\.5-flash\n$/,
  },
  {
    name: 'a strategy label with a newline in it',
    args: ['run', at('terminal/newline-label.yaml'), '--out', join(tempDir(), 'out')],
    code: 2,
    message: /newline-label\.yaml:7 \(field strategies\.1\.label\): a label is one line of printable text: no newline, tab or control character/,
  },
  {
    name: 'a scenario with a YAML alias bomb (billion laughs)',
    args: ['run', at('inputs/alias-bomb.yaml'), '--out', join(tempDir(), 'out')],
    code: 2,
    message: /alias-bomb\.yaml:8: its aliases expand to more than 100 copies \(a "billion laughs"\?\): write the values out/,
  },
  {
    name: '--prices with a YAML alias bomb',
    args: ['run', tiny, '--prices', at('inputs/alias-bomb-prices.yaml'), '--out', join(tempDir(), 'out')],
    code: 2,
    message: /alias-bomb-prices\.yaml:3: its aliases expand to more than 100 copies/,
  },
  {
    name: 'check --config with a YAML alias bomb',
    args: ['check', run, '--baseline', run, '--config', at('inputs/alias-bomb-check.yaml')],
    code: 2,
    message: /alias-bomb-check\.yaml:3: its aliases expand to more than 100 copies/,
  },
  {
    name: 'tool arguments nested 2,000 deep (run)',
    args: ['run', at('inputs/deep-args.ctx.jsonl'), '--strategies', 'full', '--out', join(tempDir(), 'out')],
    code: 2,
    message: /deep-args\.ctx\.jsonl:4 \(field toolCalls\.0\.args…\): nests more than 200 levels deep \(ctxbench reads up to 200\)/,
  },
  {
    name: 'tool arguments nested 2,000 deep (import)',
    args: ['import', at('inputs/deep-args.ctx.jsonl')],
    code: 2,
    message: /deep-args\.ctx\.jsonl:4 \(field toolCalls\.0\.args…\): nests more than 200 levels deep/,
  },
  {
    name: 'import of a canonical transcript with one broken line names the line, as run does',
    args: ['import', at('inputs/broken-line.ctx.jsonl')],
    code: 2,
    message: /broken-line\.ctx\.jsonl:5: invalid JSON/,
  },
];

/** A control character no output may hold raw: C0 but tab and newline, DEL, C1. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

describe('fixtures/bad/artifacts: results and reports a CI can trust', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { code, stderr } = await cli(c.args);
    expect(code, stderr).toBe(c.code);
    expect(stderr).toMatch(c.message);
    if (code === 2) expect(stderr.trim().split('\n'), 'one line').toHaveLength(1);
  });

  it("--out a folder of the user's own files: exit 2 naming them, every file untouched", async () => {
    const dir = usersFolder();
    const before = snapshot(dir);
    const { code, stderr } = await cli(['run', tiny, '--out', dir, '--quiet']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^ctxbench: --out .*users-own holds files ctxbench did not write \(notes\.txt\): choose an empty folder, or one ctxbench wrote \(it marks those with \.ctxbench-out\)\n$/,
    );
    expect(snapshot(dir)).toEqual(before);
    // The same for merge, report and sweep, which write into an --out too.
    expect((await cli(['report', run, '--out', dir, '--quiet'])).code).toBe(2);
    expect((await cli(['sweep', tiny, '--grid', 'rolling-window.groups=1,2', '--out', dir, '--quiet'])).code).toBe(2);
    expect(snapshot(dir)).toEqual(before);
  });

  it('--out / and --out <home>: exit 2 whatever they hold', async () => {
    expect(await cli(['run', tiny, '--out', '/', '--quiet'])).toMatchObject({
      code: 2,
      stderr: 'ctxbench: --out / is the root of a file system: choose a folder for the reports\n',
    });
    const home = tempDir();
    writeFileSync(join(home, OUT_MARKER), '{"tool":"ctxbench","files":[]}\n');
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      expect((await cli(['run', tiny, '--out', home, '--quiet'])).stderr).toMatch(/is your home folder: choose a folder for the reports/);
    } finally {
      process.env.HOME = saved;
    }
    expect(readdirSync(home)).toEqual([OUT_MARKER]);
  });

  it('a later run into the same --out removes the files of the earlier one it does not write', async () => {
    const out = join(tempDir(), 'out');
    expect((await cli(['run', tiny, '--out', out, '--quiet'])).code).toBe(0);
    expect(readdirSync(out)).toEqual(expect.arrayContaining([OUT_MARKER, 'summary.csv', 'index.html', 'junit.xml']));
    // Every file a run writes is one ctxbench knows as its own (a folder of them is adopted).
    for (const file of readdirSync(out)) expect(KNOWN_OUT_FILES, file).toContain(file);
    writeFileSync(join(out, 'notes.txt'), 'mine\n'); // the user's, in a marked folder: kept
    expect((await cli(['run', tiny, '--out', out, '--quiet', '--reports', 'json'])).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual([OUT_MARKER, 'notes.txt', 'result.json']);
    expect(JSON.parse(readFileSync(join(out, OUT_MARKER), 'utf8'))).toEqual({ tool: 'ctxbench', files: ['result.json'] });
  });

  it('a folder of ctxbench report files from before the marker (reports/latest/ of an earlier version) is adopted', async () => {
    const out = join(tempDir(), 'latest');
    expect((await cli(['run', tiny, '--out', out, '--quiet'])).code).toBe(0);
    rmSync(join(out, OUT_MARKER));
    expect((await cli(['run', tiny, '--out', out, '--quiet', '--reports', 'json,md'])).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual([OUT_MARKER, 'result.json', 'summary.md']);
    // report adds renderings beside the result it reads, removing none.
    expect((await cli(['report', join(out, 'result.json'), '--reports', 'csv', '--quiet'])).code).toBe(0);
    expect(existsSync(join(out, 'summary.md')) && existsSync(join(out, 'summary.csv')) && existsSync(join(out, 'result.json'))).toBe(true);
  });

  it('no artifact holds an absolute path; check compares transcripts by content, wherever they are', async () => {
    /** Runs `fixture` copied to `<fresh folder>/<where>/session.ctx.jsonl` (outside the working directory); returns the --out. */
    const runCopy = async (fixture: string, where: string): Promise<{ out: string; root: string }> => {
      const root = tempDir();
      mkdirSync(join(root, where));
      cpSync(at(`paths/${fixture}`), join(root, where, 'session.ctx.jsonl'));
      const out = join(root, 'out');
      const { code, stderr } = await cli(['run', join(root, where, 'session.ctx.jsonl'), '--strategies', 'full', '--out', out, '--quiet']);
      expect(code, stderr).toBe(0);
      return { out, root };
    };
    const ci = await runCopy('session.ctx.jsonl', 'ci');
    for (const file of readdirSync(ci.out)) {
      const text = readFileSync(join(ci.out, file), 'utf8');
      expect(text.includes(ci.root), `${file} names the temporary folder`).toBe(false);
      expect(text.includes(process.cwd()), `${file} names the working directory`).toBe(false);
    }
    const scenario = (JSON.parse(readFileSync(join(ci.out, 'result.json'), 'utf8')) as { scenarios: { file: string; transcript: string }[] }).scenarios[0];
    expect(scenario).toMatchObject({ file: 'session.ctx.jsonl', transcript: 'session.ctx.jsonl', transcriptSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // The same log on another machine, at another path: compared.
    const laptop = await runCopy('session.ctx.jsonl', 'laptop');
    expect((await cli(['check', join(laptop.out, 'result.json'), '--baseline', join(ci.out, 'result.json')])).code).toBe(0);
    // Another log at the same path: refused.
    const edited = await runCopy('session-edited.ctx.jsonl', 'ci');
    const { code, stderr } = await cli(['check', join(edited.out, 'result.json'), '--baseline', join(ci.out, 'result.json')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /\(field scenarios\.session\.transcript\): cannot compare: .*scenario session: the transcripts differ in content \(both at session\.ctx\.jsonl\)/,
    );
  });

  it('a model name with ESC sequences clears no screen and sets no title: escaped in the terminal and in every file', async () => {
    const out = join(tempDir(), 'out');
    const { code, stdout, stderr } = await cli(['run', at('terminal/escape-model.ctx.jsonl'), '--strategies', 'full', '--out', out]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('gpt-4.1-mini\\x1b[2J\\x1b[H\\x1b]0;pwned\\x07\\x9b31m');
    for (const [name, text] of [
      ['stdout', stdout],
      ['stderr', stderr],
      // steps.parquet is binary (its cells are escaped as steps.csv's are; that file is checked here).
      ...readdirSync(out)
        .filter((file) => !file.endsWith('.parquet'))
        .map((file) => [file, readFileSync(join(out, file), 'utf8')]),
    ] as const)
      expect(RAW_CONTROL.exec(text)?.[0], `a raw control character in ${name}`).toBeUndefined();
    // result.json keeps the value: the escapes are JSON's own.
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { scenarios: { model: string }[] };
    expect(result.scenarios[0]?.model).toBe('gpt-4.1-mini\u001b[2J\u001b[H\u001b]0;pwned\u0007\u009b31m');
    // The reports rendered again from it are escaped the same way; so is a check's table.
    const again = join(tempDir(), 'again');
    expect((await cli(['report', join(out, 'result.json'), '--out', again, '--quiet'])).code).toBe(0);
    for (const file of readdirSync(again).filter((name) => !name.endsWith('.parquet')))
      expect(RAW_CONTROL.exec(readFileSync(join(again, file), 'utf8'))?.[0], file).toBeUndefined();
    const check = await cli(['check', join(out, 'result.json'), '--baseline', join(out, 'result.json'), '--md', join(again, 'check.md')]);
    expect(RAW_CONTROL.exec(check.stdout + readFileSync(join(again, 'check.md'), 'utf8'))?.[0]).toBeUndefined();
  });

  it('GitLab, Slack webhook, Hugging Face and npm secrets quoted by probes reach no file', async () => {
    const out = join(tempDir(), 'out');
    const { code, stdout, stderr } = await cli(['run', at('secrets/new-shapes.yaml'), '--out', out]);
    expect(code, stderr).toBe(0);
    const secrets = [
      'glpat-Xy12Ab34Cd56Ef78Gh90',
      'FakeWebhookSecret0123abcd',
      'hf_FakeHuggingFaceToken0123456789abcdef',
      'npm_FakeNpmToken0123456789abcdefghijklmn',
    ];
    for (const [name, text] of [['stdout', stdout], ...readdirSync(out).map((file) => [file, readFileSync(join(out, file), 'utf8')])] as const)
      for (const secret of secrets) expect(text.includes(secret), `${secret} in ${name}`).toBe(false);
    const result = readFileSync(join(out, 'result.json'), 'utf8');
    for (const kind of ['gitlab-token', 'slack-webhook', 'huggingface-token', 'npm-token']) expect(result).toContain(`[redacted:${kind}]`);
    expect(result).toContain('https://hooks.slack.com/[redacted:slack-webhook]');
  });

  it('import of a valid canonical transcript writes it again (its secrets masked)', async () => {
    const { code, stdout, stderr } = await cli(['import', at('paths/session.ctx.jsonl')]);
    expect(code, stderr).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(readFileSync(at('paths/session.ctx.jsonl'), 'utf8').trim().split('\n').length);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ type: 'session', id: 'probe-gen-fixture' });
  });

  it('check of a valid result against itself still passes', async () => {
    const { code, stdout, stderr } = await cli(['check', run, '--baseline', run]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/1 units compared .*: no regression/);
  });
});
