import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { expandScenarioPaths, listTranscriptLogs, loadScenarioFile, resolveRelative } from '../../src/scenario/load.js';
import { transcriptSource } from '../../src/scenario/resolve.js';

const root = resolve(import.meta.dirname, '../..');

/**
 * The files `npm pack` would put in the package, from `npm pack --dry-run --json` (no network;
 * `--ignore-scripts`: no build, so `dist/` is in the list only when built, which this test does
 * not look at).
 */
function packedFiles(): Set<string> {
  const json = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [pack] = JSON.parse(json) as { files: { path: string }[] }[];
  return new Set((pack?.files ?? []).map((file) => file.path));
}

/** Every file the bundled scenarios (`npm start` runs `scenarios/`; README points at `scenarios/published/`) read: logs and probe side files. */
async function filesTheScenariosRead(): Promise<string[]> {
  const files: string[] = [];
  for (const file of await expandScenarioPaths([resolve(root, 'scenarios')])) {
    const loaded = await loadScenarioFile(file);
    files.push(file);
    const source = transcriptSource(loaded, {});
    if (source.kind === 'file') files.push(...((await listTranscriptLogs(source.path, file)) ?? [source.path]));
    const probes = loaded.data.probes;
    const side = typeof probes === 'string' ? (probes === 'generate' ? undefined : probes) : probes?.file;
    if (side !== undefined) files.push(resolveRelative(file, side));
  }
  return files.map((file) => relative(root, file).split('\\').join('/'));
}

describe('the package', () => {
  it('ships every file the bundled scenarios read, and no fixture the tests alone use', async () => {
    const packed = packedFiles();
    const needed = await filesTheScenariosRead();
    expect(needed.filter((file) => file.startsWith('fixtures/')).length).toBeGreaterThan(20);
    expect(needed.filter((file) => !packed.has(file))).toEqual([]);
    const fixtures = [...packed].filter((file) => file.startsWith('fixtures/'));
    expect(fixtures.filter((file) => !needed.includes(file) && file !== 'fixtures/real/PROVENANCE.md')).toEqual([]);
    expect(fixtures.some((file) => file.startsWith('fixtures/bad/'))).toBe(false);
  }, 60_000);
});
