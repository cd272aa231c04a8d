import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir, writeFiles } from '../helpers/temp.js';
import { generateSession } from '../../src/transcript/synthetic/generate.js';
import { serializeTranscript } from '../../src/transcript/write.js';
import { handleClosedPipe } from '../../src/cli/main.js';

const claudeLog = resolve(import.meta.dirname, '../../fixtures/real/claude-code/hello-world-script.jsonl');
// A log with generated probes: hello-world-script's only fact is a command no question may name (issue 25).
const probedLog = resolve(import.meta.dirname, '../../fixtures/real/claude-code/coverage-test-fix.jsonl');

interface ResultShape {
  scenarios: { name: string; provider: string; window: number; steps: number }[];
  units: { strategy: string; options: Record<string, unknown>; summary: { answer_recall: number | null; crashed: boolean } }[];
}

const readResult = (out: string): ResultShape => JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as ResultShape;

/** A small generated session saved under `name` in a fresh folder. */
function generated(name: string): string {
  const dir = writeFiles({ [name]: serializeTranscript(generateSession({ steps: 12, seed: 3, toolOutputTokens: 300, facts: 3 })) });
  return join(dir, name);
}

afterEach(() => vi.restoreAllMocks());

describe('ctxbench run with a transcript instead of a scenario', () => {
  it('runs a generated transcript as an ad-hoc scenario and prints that scenario first', async () => {
    const out = tempDir();
    const { code, stdout } = await cli([
      'run',
      generated('session.ctx.jsonl'),
      '--strategies',
      'full,rolling-window',
      '--reports',
      'json',
      '--workers',
      '1',
      '-o',
      out,
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('session.ctx.jsonl is a transcript, not a scenario');
    expect(stdout).toContain('name: session\ntranscript: session.ctx.jsonl     # synthetic\nprovider: gemini');
    expect(stdout).toContain("# probes: the transcript's own");
    expect(stdout).toContain('strategies: [full, rolling-window]');
    const result = readResult(out);
    expect(result.scenarios.map((s) => [s.name, s.provider, s.steps])).toEqual([['session', 'gemini', 12]]);
    expect(result.units.map((u) => u.strategy)).toEqual(['full', 'rolling-window']);
    expect(result.units[0]?.summary.answer_recall).toBe(1);
  });

  it('reads a canonical transcript saved without the .ctx.jsonl suffix (generate > s.jsonl)', async () => {
    const out = tempDir();
    const { code } = await cli(['run', generated('piped.jsonl'), '--strategies', 'full', '--reports', 'json', '--workers', '1', '--quiet', '-o', out]);
    expect(code).toBe(0);
    expect(readResult(out).scenarios[0]?.name).toBe('piped');
  });

  it('runs a real Claude Code log with probes generated from it', async () => {
    const out = tempDir();
    const { code, stdout } = await cli(['run', probedLog, '--strategies', 'full', '--reports', 'json', '--workers', '1', '-o', out]);
    expect(code).toBe(0);
    expect(stdout).toContain('transcript: coverage-test-fix.jsonl     # claude-code');
    expect(stdout).toContain('probes: generate');
    const result = readResult(out);
    expect(result.scenarios.map((s) => [s.name, s.steps])).toEqual([['coverage-test-fix', 14]]);
    expect(result.units[0]?.summary.answer_recall).not.toBeNull();
  });

  it('names a format with --from, and refuses an unknown one with the list', async () => {
    const out = tempDir();
    const ok = await cli(['run', claudeLog, '--from', 'claude-code', '--strategies', 'full', '--reports', 'json', '--workers', '1', '--quiet', '-o', out]);
    expect(ok.code).toBe(0);
    const bad = await cli(['run', claudeLog, '--from', 'cursor', '-o', tempDir()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown transcript format "cursor"; known formats: claude-code, codex');
  });

  it('says which format to name for a .jsonl it cannot read as a transcript', async () => {
    const file = join(writeFiles({ 'x.jsonl': '{"hello":1}\n' }), 'x.jsonl');
    const { code, stderr } = await cli(['run', file, '-o', tempDir()]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/x\.jsonl: neither a scenario nor a transcript of a known format; name its format with --from/);
  });
});

describe('ctxbench run --set strategy.option=value', () => {
  it('sets the option on the strategy for the run (the result records it)', async () => {
    const out = tempDir();
    const { code } = await cli([
      'run',
      generated('s.ctx.jsonl'),
      '--strategies',
      'full,rolling-window',
      '--set',
      'rolling-window.groups=1',
      '--reports',
      'json',
      '--workers',
      '1',
      '--quiet',
      '-o',
      out,
    ]);
    expect(code).toBe(0);
    const units = readResult(out).units;
    expect(units.find((u) => u.strategy === 'rolling-window')?.options.groups).toBe(1);
    expect(units.find((u) => u.strategy === 'full')?.options).toEqual({});
  });

  it.each([
    [['--set', 'rolling-window.grops=6'], '--set \'rolling-window.grops=6\': not valid for rolling-window: Unrecognized key: "grops"'],
    [['--set', 'rolling-window.groups=2..6'], "--set 'rolling-window.groups=2..6': one value per option (to try several, use ctxbench sweep --grid"],
    [['--set', 'nosuch.x=1'], '--set \'nosuch.x=1\': unknown strategy "nosuch"'],
    [
      ['--strategies', 'full', '--set', 'rolling-window.groups=6'],
      "--set 'rolling-window.groups=6': the scenario s does not run rolling-window (add it with --strategies)",
    ],
  ])('refuses %j with exit 2', async (args, message) => {
    const { code, stderr } = await cli(['run', generated('s.ctx.jsonl'), ...args, '--quiet', '-o', tempDir()]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});

describe('ctxbench run --set on a strategy of your own', () => {
  const examples = resolve(import.meta.dirname, '../../examples');

  it('reaches a --strategy-module strategy, validated by its own options check', async () => {
    const out = tempDir();
    const module = join(examples, 'js-policy', 'masking.mjs');
    const args = ['run', generated('s.ctx.jsonl'), '--strategy-module', module, '--reports', 'json', '--workers', '1', '--quiet'];
    expect((await cli([...args, '--set', 'masking.keepLast=3', '-o', out])).code).toBe(0);
    expect(readResult(out).units.map((u) => [u.strategy, u.options.keepLast])).toEqual([['masking', 3]]);
    const bad = await cli([...args, '--set', 'masking.keepLast=-1', '-o', tempDir()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--set 'masking.keepLast=-1': not valid for masking: expects a whole number >= 0 (option keepLast)");
  });

  it('reaches a policy process named by its label, and names the own strategies when the name is unknown', async () => {
    const dir = writeFiles({
      'policy.yaml': [
        'name: policy',
        'transcript: { generate: { steps: 8, seed: 3, toolOutputTokens: 300 } }',
        'window: 6000',
        'strategies:',
        `  - { label: python-masking, command: [python3, ${JSON.stringify(join(examples, 'python-policy', 'masking.py'))}], options: { keepLast: 10 } }`,
      ].join('\n'),
    });
    const out = tempDir();
    const args = ['run', join(dir, 'policy.yaml'), '--reports', 'json', '--workers', '1', '--quiet'];
    const { code, stderr } = await cli([...args, '--set', 'python-masking.keepLast=2', '-o', out]);
    expect(code, stderr).toBe(0);
    expect(readResult(out).units.map((u) => [u.strategy, u.options.keepLast])).toEqual([['python-masking', 2]]);
    const unknown = await cli([...args, '--set', 'python-maskng.keepLast=2', '-o', tempDir()]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /--set 'python-maskng\.keepLast=2': unknown strategy "python-maskng"; known strategies: full, .*; policy's own: python-masking/,
    );
  });
});

describe('the run header', () => {
  it("shows the scenarios' own seeds, not the run's default", async () => {
    const scenario = (name: string, seed: number): string =>
      [`name: ${name}`, 'transcript: { generate: { steps: 4, seed: 1, toolOutputTokens: 100 } }', `seed: ${seed}`, 'window: 64000', 'strategies: [full]'].join(
        '\n',
      );
    const dir = writeFiles({ 'a.yaml': scenario('a', 5), 'b.yaml': scenario('b', 9) });
    const { code, stdout } = await cli(['run', dir, '--reports', 'json', '--workers', '1', '-o', tempDir()]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^ctxbench \S+ · seeds 5, 9 · mock providers$/);
  });
});

describe('paths in messages', () => {
  it('a path under the working directory shows relative, one outside it absolute (never ../../tmp)', async () => {
    const bad = await cli(['run', 'fixtures/bad/scenarios/wrong-type.yaml', '-o', tempDir()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^ctxbench: fixtures\/bad\/transcripts\/wrong-type\.ctx\.jsonl:3 \(field text\)/);
    const scenario = await cli(['run', 'fixtures/bad/scenarios/window-zero.yaml', '-o', tempDir()]);
    expect(scenario.stderr).toMatch(/^ctxbench: fixtures\/bad\/scenarios\/window-zero\.yaml:4 \(field window\)/);
    const file = generated('s.ctx.jsonl');
    const out = tempDir();
    const { code, stdout } = await cli(['run', file, '--strategies', 'full', '--reports', 'json', '--workers', '1', '-o', out]);
    expect(code).toBe(0);
    expect(stdout).toContain(`# ${file} is a transcript, not a scenario`);
    expect(stdout).toContain(`wrote 1 files to ${out}/`);
  });

  it('an --out typed absolute stays absolute, even under the working directory', async () => {
    const out = join(process.cwd(), 'reports', `paths-test-${process.pid}`);
    try {
      const { code, stdout } = await cli(['run', generated('s.ctx.jsonl'), '--strategies', 'full', '--reports', 'json', '--workers', '1', '-o', `${out}/`]);
      expect(code).toBe(0);
      expect(stdout).toContain(`wrote 1 files to ${out}/\n`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('-o/--out and stdout', () => {
  it('import writes the transcript to stdout without -o, and what it holds to stderr', async () => {
    const { code, stdout, stderr } = await cli(['import', claudeLog]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout.split('\n')[0] ?? '')).toMatchObject({ type: 'session', source: { format: 'claude-code' } });
    expect(stderr).toContain('→ (stdout)\n  messages ');
  });

  it('import --sidechains needs -o (the subagent files go beside it)', async () => {
    const { code, stderr } = await cli(['import', claudeLog, '--sidechains']);
    expect(code).toBe(2);
    expect(stderr).toContain('--sidechains writes a file per subagent conversation beside -o <file>: give -o');
  });

  it('probes generate reads a raw agent log, and takes -o as well as the old --output', async () => {
    const dir = tempDir();
    for (const flag of ['-o', '--out', '--output']) {
      const file = join(dir, `probes${flag}.json`);
      const { code, stderr } = await cli(['probes', 'generate', probedLog, '--max', '3', flag, file]);
      expect(code).toBe(0);
      expect(stderr.includes('ctxbench: probes generate --output is deprecated: use -o/--out\n')).toBe(flag === '--output');
      const probes = (JSON.parse(readFileSync(file, 'utf8')) as { probes: { id: string }[] }).probes;
      expect(probes.length).toBeGreaterThan(0);
      expect(probes.length).toBeLessThanOrEqual(3);
    }
  });
});

describe('ctxbench strategies and --help', () => {
  it('shows options as run --set takes them', async () => {
    const { code, stdout } = await cli(['strategies']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {4}rolling-window\.groups=4 {2,}how many of the most recent conversation groups to keep/m);
    expect(stdout).not.toContain('--groups');
  });

  it.each([
    ['run'],
    ['strategies'],
    ['generate'],
    ['import'],
    ['probes'],
    ['probes', 'generate'],
    ['probes', 'needed'],
    ['fidelity'],
    ['report'],
    ['check'],
    ['merge'],
    ['sweep'],
    ['calibrate'],
    ['verify'],
    ['validate'],
    [],
  ])('ctxbench %j --help ends with examples', async (...command) => {
    const { code, stdout } = await cli([...command.flat(), '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\nExamples:\n {2}# .+\n {2}\$ ctxbench /);
    // A default that says nothing (an empty list of a repeatable flag or of paths) is not shown.
    expect(stdout).not.toMatch(/\(default: (\[\]|""|\{\}|false)\)/);
    // Nor a second default after a description that names it ("mock (default), gemini or openai").
    const options = (stdout.split('\nOptions:\n')[1] ?? '').split('\nExamples:\n')[0] ?? '';
    for (const option of options.split(/\n(?= {2}-)/)) expect(option.match(/\bdefault\b/g)?.length ?? 0, option).toBeLessThanOrEqual(1);
  });
});

describe('a closed pipe', () => {
  it('keeps the exit status of a command whose status is its result, and lets other stream errors through', () => {
    const stream = new EventEmitter() as unknown as NodeJS.WriteStream;
    const exits: number[] = [];
    handleClosedPipe(stream, (code) => exits.push(code));
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(exits).toEqual([]);
    expect(() => stream.emit('error', Object.assign(new Error('write EIO'), { code: 'EIO' }))).toThrow('write EIO');
  });
});
