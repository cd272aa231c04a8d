import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { cli } from '../helpers/cli.js';
import { tempDir, writeFiles } from '../helpers/temp.js';
import { transpiledPackage } from '../helpers/transpile.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const log = join(root, 'fixtures', 'real', 'mini-swe-agent', 'django__django-11163.traj.json');

/** A real log with generated probes, two strategies: a run on one thread makes its probes on the helper. */
const scenario = (extra = '') =>
  writeFiles({
    's.yaml': ['name: helper', `transcript: ${JSON.stringify(log)}`, 'probes: generate', 'window: 9000', 'strategies: [full, rolling-window]', extra].join(
      '\n',
    ),
  });

/** Runs `lines` (an ES module of the transpiled package's `dist/`, `mod(path)` naming its modules) in a process of its own. */
async function host(lines: (mod: (path: string) => string) => string[]): Promise<string> {
  const pkg = await transpiledPackage();
  const mod = (path: string) => JSON.stringify(pathToFileURL(join(pkg, 'dist', path)).href);
  const script = join(tempDir(), 'host.mjs');
  writeFileSync(script, lines(mod).join('\n'));
  // The process ends on its own only if the helper thread was stopped.
  const { stdout } = await run(process.execPath, [script], { cwd: root, timeout: 120_000 });
  return stdout.trim();
}

/**
 * The helper is a thread, which runs JavaScript only: from the TypeScript source (vitest) a run
 * makes its probes in its own thread. These tests run the sources transpiled (test/helpers/transpile.ts).
 */
describe('the probe helper of a run on one thread', () => {
  it('makes the probes this thread makes, request after request, and reports a failure as an error', { timeout: 300_000 }, async () => {
    const out = await host((mod) => [
      `import { createProbeHelper } from ${mod('run/probe-helper.js')};`,
      `import { generateProbes } from ${mod('probes/generate.js')};`,
      `import { loadTranscript } from ${mod('scenario/load-transcript.js')};`,
      `const transcript = await loadTranscript({ kind: 'file', path: ${JSON.stringify(log)}, lenient: false }, 0);`,
      'const helper = createProbeHelper(true);',
      'const [a, b] = await Promise.all([helper.generate(transcript, { max: 3 }), helper.generate(transcript, { max: 5 })]);',
      'const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);',
      "const failed = await helper.generate({ header: {}, events: 'not a list' }, { max: 3 }).then(() => 'resolved', (e) => e.message);",
      'await helper.stop();',
      'console.log(same(a, generateProbes(transcript, { max: 3 })), same(b, generateProbes(transcript, { max: 5 })), a.length, b.length);',
      'console.log(failed);',
    ]);
    const [same, failed] = out.split('\n');
    expect(same).toMatch(/^true true [1-3] [1-5]$/);
    expect(failed).toMatch(/^in the probe helper thread: /);
  });

  it('gives the result.json of a run that makes its probes in its own thread, memos on and off', { timeout: 300_000 }, async () => {
    const cliJs = join(await transpiledPackage(), 'dist', 'cli', 'main.js');
    const dir = scenario();
    for (const memo of [[], ['--no-memo']]) {
      const args = (out: string) => ['run', dir, '--out', out, '--quiet', '--workers', '1', '--reports', 'json', ...memo];
      // The reference: the TypeScript source in this process, whose probes are made in this thread.
      const here = tempDir();
      expect((await cli(args(here))).code).toBe(0);
      const threaded = tempDir();
      await run(process.execPath, [cliJs, ...args(threaded)], { cwd: root });
      const result = readFileSync(join(threaded, 'result.json'), 'utf8');
      expect(result, `--workers 1 ${memo.join(' ')}`).toBe(readFileSync(join(here, 'result.json'), 'utf8'));
      const probes = (JSON.parse(result) as { units: { summary: { probes: number } }[] }).units.map((u) => u.summary.probes > 0);
      expect(probes).toEqual([true, true]);
    }
  });

  it('is stopped with the run: when preparing fails (exit 2), and when the run ends', { timeout: 300_000 }, async () => {
    const bad = writeFiles({ 'bad.yaml': 'name: bad\ntranscript: missing.ctx.jsonl\nprobes: generate\nstrategies: [full]\n' });
    const runOn = (dir: string) => (mod: (path: string) => string) => [
      `const { runSuite } = await import(${mod('index.js')});`,
      `runSuite({ scenarios: [${JSON.stringify(dir)}], workers: 1 }).then(`,
      "  (r) => console.log(`ok ${r.units.map((u) => `${u.strategy}:${u.summary.steps_completed}`).join(' ')}`),",
      '  (e) => console.log(`failed ${e.exitCode} ${e.message}`),',
      ');',
    ];
    expect(await host(runOn(bad))).toMatch(/^failed 2 .*missing\.ctx\.jsonl/);
    expect(await host(runOn(scenario()))).toMatch(/^ok full:\d+ rolling-window:\d+$/);
  });
});
