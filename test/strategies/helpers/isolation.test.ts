import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { runSuite } from '../../../src/run/run-suite.js';
import { renderJson } from '../../../src/report/json.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';
import { transpiledPackage } from '../../helpers/transpile.js';

const run = promisify(execFile);

/** Two tiny scenarios, one per provider format, seeded by `seed`. */
function suite(seed: number): string {
  const scenario = (dialect: string) =>
    [
      `name: ${dialect}-${seed}`,
      'transcript:',
      `  generate: { steps: 8, seed: ${seed}, dialect: ${dialect}, toolOutputTokens: 400, facts: 2 }`,
      `provider: ${dialect}`,
      'window: 6000',
      'quota: { tpm: 30000 }',
      `seed: ${seed}`,
      'strategies: [full, rolling-window]',
    ].join('\n');
  return writeFiles({ 'a.yaml': scenario('gemini'), 'b.yaml': scenario('openai') });
}

const resultJson = async (scenarios: string): Promise<string> =>
  (renderJson(await runSuite({ scenarios: [scenarios], workers: 1 }))[0] as { contents: string }).contents;

/**
 * These run in a clean child process (no vitest, no test setup, no nock), on the sources
 * transpiled as they are: the point is what the library does to a host process's globals.
 */
describe('the library leaves its host process alone', () => {
  const host = async (lines: string[]): Promise<string> => {
    const dir = tempDir();
    const script = join(dir, 'host.mjs');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(script, lines.join('\n'));
    const { stdout } = await run(process.execPath, [script], { cwd: dir });
    return stdout.trim();
  };
  const importGlobals = (entry: string): string[] => [
    "import http from 'node:http';",
    'const before = { fetch: globalThis.fetch, request: http.request, get: http.get };',
    `await import(${JSON.stringify(entry)});`,
    'console.log(JSON.stringify({ fetch: globalThis.fetch === before.fetch, request: http.request === before.request, get: http.get === before.get }));',
  ];

  it('importing the entry point replaces neither globalThis.fetch nor http.request (and the check sees it when something does)', async () => {
    const pkg = await transpiledPackage();
    const entry = pathToFileURL(join(pkg, 'dist', 'index.js')).href;
    expect(JSON.parse(await host(importGlobals(entry)))).toEqual({ fetch: true, request: true, get: true });
    // The same check catches a module that patches the HTTP stack on import, as nock does.
    const nock = pathToFileURL(join(pkg, 'node_modules', 'nock', 'index.js')).href;
    expect(JSON.parse(await host(importGlobals(nock)))).toEqual({ fetch: false, request: false, get: false });
  });

  it("after a mocked runSuite, the host's own fetch to a local server still works and its globals are the same", async () => {
    const pkg = await transpiledPackage();
    const entry = pathToFileURL(join(pkg, 'dist', 'index.js')).href;
    const out = await host([
      "import http from 'node:http';",
      'const before = { fetch: globalThis.fetch, request: http.request };',
      `const { runSuite } = await import(${JSON.stringify(entry)});`,
      "const server = http.createServer((req, res) => res.end('host says hi'));",
      "await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));",
      `const result = await runSuite({ scenarios: [${JSON.stringify(suite(5))}], workers: 1 });`,
      'const text = await (await fetch(`http://127.0.0.1:${server.address().port}/`)).text();',
      'server.close();',
      'console.log(JSON.stringify({ units: result.units.length, steps: result.units.every((u) => u.summary.steps_completed > 0), text, same: globalThis.fetch === before.fetch && http.request === before.request }));',
    ]);
    expect(JSON.parse(out)).toEqual({ units: 4, steps: true, text: 'host says hi', same: true });
  });
});

describe('concurrent mocked runs in one process are independent', () => {
  it('two runSuite calls at once give the same results as the same two one after the other', async () => {
    const [a, b] = [suite(21), suite(22)];
    const sequential = [await resultJson(a), await resultJson(b)];
    const concurrent = await Promise.all([resultJson(a), resultJson(b)]);
    expect(concurrent).toEqual(sequential);
    const units = (JSON.parse(concurrent[1] as string) as { units: { summary: { steps_completed: number; crashed: boolean } }[] }).units;
    expect(units.map((u) => u.summary.steps_completed > 0)).toEqual([true, true, true, true]);
  });
});
