import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { at, expectBadInput, tiny, type Case } from '../helpers/bad-input.js';

const check = (baseline: string): string[] => ['check', at('check/run-seed-1.json'), '--baseline', at(`check/${baseline}`)];

/** A folder whose `.lock` a running process holds (this test's parent), as a `run` under way holds its --out. */
function heldFolder(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'result.json'), '{"earlier":true}\n');
  writeFileSync(join(dir, '.lock'), `${JSON.stringify({ pid: process.ppid, host: hostname(), started: '2026-01-01T00:00:00.000Z' })}\n`);
  return dir;
}

function expectHeldUntouched(dir: string): void {
  expect(readdirSync(dir).sort()).toEqual(['.lock', 'result.json']);
  expect(readFileSync(join(dir, 'result.json'), 'utf8')).toBe('{"earlier":true}\n');
}

const heldByReport = heldFolder();
const heldBySweep = heldFolder();
const imported = join(tempDir(), 'with-secrets.ctx.jsonl');

/** Every input of fixtures/bad/ but the policies (bad-policies.test.ts), with the exit code and the message it must give. */
const CASES: Case[] = [
  {
    name: 'a folder without scenarios',
    args: ['run', at('flags/empty-folder')],
    out: true,
    code: 2,
    message: /nothing to run: no scenario files \(\.yaml, \.yml, \.json\) in .*empty-folder/,
  },
  {
    name: 'a transcript with no steps',
    args: ['run', at('scenarios/no-steps.yaml')],
    out: true,
    code: 2,
    message: /no-steps\.ctx\.jsonl: the transcript has no steps/,
  },
  {
    name: 'a transcript line that is not JSON',
    args: ['run', at('scenarios/bad-json.yaml')],
    out: true,
    code: 2,
    message: /bad-json\.ctx\.jsonl:3: invalid JSON/,
  },
  {
    name: 'a transcript field of the wrong type',
    args: ['run', at('scenarios/wrong-type.yaml')],
    out: true,
    code: 2,
    message: /wrong-type\.ctx\.jsonl:3 \(field text\): .*expected string/,
  },
  {
    name: 'a transcript without its header',
    args: ['run', at('scenarios/no-header.yaml')],
    out: true,
    code: 2,
    message: /no-header\.ctx\.jsonl:1 \(field type\): the first line must be the session header/,
  },
  {
    name: 'an empty transcript file',
    args: ['run', at('scenarios/empty-transcript.yaml')],
    out: true,
    code: 2,
    message: /empty\.ctx\.jsonl: empty transcript/,
  },
  {
    name: 'a transcript that does not exist',
    args: ['run', at('scenarios/missing-transcript.yaml')],
    out: true,
    code: 2,
    message: /does-not-exist\.ctx\.jsonl: cannot read the transcript: ENOENT/,
  },
  {
    name: 'a scenario with window 0',
    args: ['run', at('scenarios/window-zero.yaml')],
    out: true,
    code: 2,
    message: /window-zero\.yaml:4 \(field window\): Too small/,
  },
  {
    name: 'a scenario with quota.tpm 0',
    args: ['run', at('scenarios/tpm-zero.yaml')],
    out: true,
    code: 2,
    message: /tpm-zero\.yaml:5 \(field quota\.tpm\): Too small/,
  },
  {
    name: 'a scenario whose reader.contextRot names no published curve',
    args: ['run', at('scenarios/context-rot-unknown.yaml')],
    out: true,
    code: 2,
    message: /context-rot-unknown\.yaml:5 \(field reader\.contextRot\): use off or one of nolima, nolima:gpt-4o/,
  },
  {
    name: 'a scenario with a misspelt key',
    args: ['run', at('scenarios/unknown-key.yaml')],
    out: true,
    code: 2,
    message: /unknown-key\.yaml:4 \(field windw\): Unrecognized key: "windw"/,
  },
  {
    name: 'a probe file with a misspelt key',
    args: ['run', at('probes/bad-probe.yaml')],
    out: true,
    code: 2,
    message: /probes\.yaml:9 \(field probes\.1\.expected\.exactly\): Unrecognized key: "exactly"/,
  },
  {
    name: 'a check config with a threshold that is not a number',
    args: [...check('run-seed-1.json'), '--config', at('check/bad-config.yaml')],
    code: 2,
    message: /bad-config\.yaml:4 \(field overrides\.0\.maxRecallDrop\): Invalid input: expected number/,
  },
  {
    name: 'a scenario naming an unknown strategy',
    args: ['run', at('scenarios/unknown-strategy.yaml')],
    out: true,
    code: 2,
    message: /unknown strategy "rolling-windw"; known strategies: full, /,
  },
  { name: 'a scenario that is not YAML', args: ['run', at('scenarios/bad-yaml.yaml')], out: true, code: 2, message: /bad-yaml\.yaml:4: not valid YAML\/JSON/ },
  {
    name: '--window 0',
    args: ['run', tiny, '--window', '0'],
    out: true,
    code: 2,
    message: /--window "0": too small: expected number to be >0 \(as the scenario field window\)/,
  },
  {
    name: '--tpm 0 (no quota is spelt --tpm none)',
    args: ['run', tiny, '--tpm', '0'],
    out: true,
    code: 2,
    message: /--tpm "0": too small.*quota\.tpm; for no limit write --tpm none/,
  },
  {
    name: '--context-rot with no published curve of that name',
    args: ['run', tiny, '--context-rot', 'nolima:gpt-5'],
    out: true,
    code: 2,
    message: /--context-rot expects one of off, nolima, nolima:gpt-4o, .*got "nolima:gpt-5"/,
  },
  { name: '--rpm abc', args: ['run', tiny, '--rpm', 'abc'], out: true, code: 2, message: /--rpm "abc": invalid input: expected number, received nan/ },
  {
    name: '--seed -1',
    args: ['run', tiny, '--seed=-1'],
    out: true,
    code: 2,
    message: /--seed "-1": too small: expected number to be >=0 \(as the scenario field seed\)/,
  },
  { name: '--workers 0', args: ['run', tiny, '--workers', '0'], out: true, code: 2, message: /--workers expects at least 1, got "0"/ },
  {
    name: '--reports with an unknown format',
    args: ['run', tiny, '--reports', 'json,pdf'],
    out: true,
    code: 2,
    message: /unknown reporter "pdf"; known reporters: json, csv, parquet, html, md, junit/,
  },
  {
    name: '--out that is a file',
    args: ['run', tiny, '--out', at('flags/out-is-a-file.txt')],
    code: 2,
    message: /--out .*out-is-a-file\.txt is a file, not a folder/,
  },
  {
    name: '--out inside a file',
    args: ['run', tiny, '--out', at('flags/out-is-a-file.txt/reports')],
    code: 2,
    message: /--out .*out-is-a-file\.txt\/reports cannot be a folder: ENOTDIR/,
  },
  {
    name: '--resume of a folder without a journal',
    args: ['run', '--resume', at('resume/no-journal')],
    code: 2,
    message: /nothing to resume in .*no-journal: no \.journal\.jsonl/,
  },
  {
    name: '--resume of a journal of another format',
    args: ['run', '--resume', at('resume/corrupt-journal')],
    code: 2,
    message: /corrupt-journal\/\.journal\.jsonl:1 \(field format\): not a ctxbench run journal/,
  },
  {
    name: '--resume with a flag that would change the run',
    args: ['run', '--resume', at('resume/no-journal'), '--window', '5'],
    code: 2,
    message: /--resume runs the interrupted run as it was started: drop --window/,
  },
  {
    name: 'import --from claude-code of a Codex log',
    args: ['import', '--from', 'claude-code', at('import/codex-session.jsonl'), '-o', join(tempDir(), 'x.ctx.jsonl')],
    code: 2,
    message: /codex-session\.jsonl: read as claude-code, it holds no messages/,
  },
  {
    name: 'run --from codex of a Claude Code log says which format it looks like',
    args: ['run', at('import/claude-session-with-secrets.jsonl'), '--from', 'codex', '--strategies', 'full'],
    out: true,
    code: 2,
    message: /claude-session-with-secrets\.jsonl: does not look like a codex log: it looks like a claude-code log; use --from claude-code/,
  },
  {
    name: 'probes generate --from codex of a Claude Code log says which format it looks like',
    args: ['probes', 'generate', '--from', 'codex', at('import/claude-session-with-secrets.jsonl')],
    code: 2,
    message: /claude-session-with-secrets\.jsonl: does not look like a codex log: it looks like a claude-code log; use --from claude-code/,
  },
  {
    name: 'import --from codex of a Claude Code log says which format it looks like',
    args: ['import', '--from', 'codex', at('import/claude-session-with-secrets.jsonl'), '-o', join(tempDir(), 'x.ctx.jsonl')],
    code: 2,
    message: /claude-session-with-secrets\.jsonl: does not look like a codex log: it looks like a claude-code log; use --from claude-code/,
  },
  {
    name: 'import -o masks the secrets of the log and counts them on stderr',
    args: ['import', at('import/claude-session-with-secrets.jsonl'), '-o', imported],
    code: 0,
    stream: 'stderr',
    message: /claude-session-with-secrets\.jsonl: 4 secrets redacted \(1 github-token, 2 openai-key, 1 private-key\); --no-redact keeps them/,
    after: () => {
      const text = readFileSync(imported, 'utf8');
      expect(text).not.toMatch(/sk-proj-|ghp_|BEGIN RSA PRIVATE KEY/);
      expect(text).toContain('[redacted:github-token]');
    },
  },
  {
    name: 'generate -o a folder',
    args: ['generate', '--steps', '5', '-o', at('flags/empty-folder')],
    code: 2,
    message: /-o .*empty-folder is a folder: give the file to write/,
  },
  {
    name: '--out under /proc fails at once (no spin in a recursive mkdir)',
    args: ['run', tiny, '--out', '/proc/ctxbench-out/reports'],
    code: 2,
    message: /--out .*proc\/ctxbench-out\/reports is not writable \(in .*proc\): no file can be created there/,
  },
  {
    name: '--out that cannot be written says so (not ENOENT)',
    args: ['run', tiny, '--out', '/proc/self'],
    code: 2,
    message: /--out .*proc\/self is not writable: permission denied; choose another folder/,
  },
  {
    name: 'report -o a folder a running run holds',
    args: ['report', at('check/run-seed-1.json'), '-o', heldByReport],
    code: 2,
    message: /is in use by another ctxbench run \(pid \d+ on .*\); wait for it, or choose another --out/,
    after: () => expectHeldUntouched(heldByReport),
  },
  {
    name: 'sweep --out a folder a running run holds: refused before the sweep runs',
    args: ['sweep', tiny, '--grid', 'rolling-window.groups=2,4', '--out', heldBySweep],
    code: 2,
    message: /is in use by another ctxbench run \(pid \d+ on .*\); wait for it, or choose another --out/,
    after: () => expectHeldUntouched(heldBySweep),
  },
  {
    name: 'check against a baseline of another seed',
    args: check('baseline-seed-2.json'),
    code: 2,
    message: /baseline-seed-2\.json \(field seed\): cannot compare: .*seed 1 in the run, 2 in the baseline.*--allow-mismatch/,
  },
  {
    name: 'check against a scenario defined differently',
    args: check('baseline-window-32000.json'),
    code: 2,
    message: /baseline-window-32000\.json \(field scenarios\.tiny\.window\): cannot compare: .*scenario tiny: window 64000 in the run, 32000 in the baseline/,
  },
  {
    name: 'check against a file that is not a result',
    args: check('not-a-result.json'),
    code: 2,
    message: /not-a-result\.json \(field units\.0\.summary\): not a ctxbench result/,
  },
  {
    name: 'check --allow-mismatch compares anyway',
    args: [...check('baseline-seed-2.json'), '--allow-mismatch'],
    code: 0,
    message: /scenario tiny ran with seed 1, the baseline with 2/,
  },
  {
    name: '--prices with a negative output price',
    args: ['run', tiny, '--prices', at('prices/negative-output.yaml')],
    out: true,
    code: 2,
    message: /negative-output\.yaml:4 \(field models\.claude-sonnet-4\.output\): Too small/,
  },
  {
    name: '--prices with a misspelt key (sweep)',
    args: ['sweep', tiny, '--grid', 'rolling-window.keep=4', '--prices', at('prices/misspelt.json')],
    out: true,
    code: 2,
    message: /misspelt\.json:3 \(field outptu\): Unrecognized key: "outptu"/,
  },
  {
    name: 'check --prices with a negative output price',
    args: [...check('run-seed-1.json'), '--prices', at('prices/negative-output.yaml')],
    code: 2,
    message: /negative-output\.yaml:4 \(field models\.claude-sonnet-4\.output\): Too small/,
  },
  {
    name: '--lenient skips the bad line and says so in the summary',
    args: ['run', at('scenarios/lenient.yaml'), '--workers', '1', '--reports', 'json'],
    out: true,
    code: 0,
    message: /--lenient skipped 1 invalid transcript line: lenient 1/,
  },
];

describe('fixtures/bad: every bad input gives its exit code and names what is wrong', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => expectBadInput(c));

  it('--tpm none runs without a quota, where the scenario file has one', async () => {
    const out = tempDir();
    expect((await cli(['run', at('flags/tiny.yaml'), '--tpm', 'none', '--out', out, '--quiet', '--reports', 'json'])).code).toBe(0);
    const withQuota = tempDir();
    expect((await cli(['run', at('flags/tiny.yaml'), '--tpm', '5000', '--out', withQuota, '--quiet', '--reports', 'json'])).code).toBe(0);
    const tpm = (dir: string) => (JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as { scenarios: { tpm?: number }[] }).scenarios[0]?.tpm;
    expect(tpm(withQuota)).toBe(5000);
    expect(tpm(out)).toBeUndefined();
  });
  it("--prices bills the run at the file's prices, over the price table", async () => {
    const prices = join(tempDir(), 'prices.yaml');
    writeFileSync(prices, 'models:\n  gemini-2.5-flash: { input: 10, output: 50 }\n');
    const out = tempDir();
    expect((await cli(['run', tiny, '--prices', prices, '--out', out, '--quiet', '--reports', 'json'])).code).toBe(0);
    const summary = (JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { units: { summary: Record<string, number> }[] }).units[0]?.summary;
    // 1,745 prompt tokens, none cached (each request is under the 1,024-token minimum), 183 output.
    expect(summary).toMatchObject({ prompt_tokens: 1745, cached_input_tokens: 0, completion_tokens: 183 });
    expect(summary?.cost_usd).toBeCloseTo((1745 * 10 + 183 * 50) / 1e6, 5); // steps keep their cost to the micro-dollar
  });
});
