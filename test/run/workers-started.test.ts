import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { tempDir, writeFiles } from '../helpers/temp.js';
import { transpiledPackage } from '../helpers/transpile.js';

const run = promisify(execFile);

const scenario = (transcript: string, strategies: string) =>
  ['name: small', `transcript: ${transcript}`, 'provider: openai', 'window: 16000', `strategies: [${strategies}]`].join('\n');

/**
 * runSuite starts its worker threads before it prepares the scenarios (their start-up overlaps the
 * preparation). Whatever happens next, no thread may outlive the run: these hosts end on their
 * own only if every thread was stopped (a live thread keeps a process running).
 */
describe('worker threads started ahead of the run', () => {
  const host = async (scenarios: string, workers: number): Promise<string> => {
    const pkg = await transpiledPackage();
    const entry = pathToFileURL(join(pkg, 'dist', 'index.js')).href;
    const script = join(tempDir(), 'host.mjs');
    writeFileSync(
      script,
      [
        `const { runSuite } = await import(${JSON.stringify(entry)});`,
        `runSuite({ scenarios: [${JSON.stringify(scenarios)}], workers: ${workers} }).then(`,
        "  (r) => console.log(`ok ${r.units.map((u) => `${u.strategy}:${u.summary.steps_completed}`).join(' ')}`),",
        '  (e) => console.log(`failed ${e.exitCode} ${e.message}`),',
        ');',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, [script], { timeout: 120_000 });
    return stdout.trim();
  };

  it('are stopped when preparing a scenario fails, and the bad input still exits 2', async () => {
    const dir = writeFiles({ 'bad.yaml': scenario('missing.ctx.jsonl', 'full, rolling-window') });
    expect(await host(dir, 2)).toMatch(/^failed 2 .*missing\.ctx\.jsonl/);
  });

  it('are stopped when the run needs fewer of them, and the run completes in this thread', async () => {
    const dir = writeFiles({ 'one.yaml': scenario('{ generate: { steps: 6, seed: 2 } }', 'full') });
    expect(await host(dir, 3)).toBe('ok full:6');
  });

  it('take the units when the run uses them', async () => {
    const dir = writeFiles({ 'two.yaml': scenario('{ generate: { steps: 6, seed: 2 } }', 'full, rolling-window') });
    expect(await host(dir, 2)).toBe('ok full:6 rolling-window:6');
  });
});
