import { describe, expect, it } from 'vitest';
import { runSuite } from '../../src/run/run-suite.js';
import { writeFiles } from '../helpers/temp.js';
import { expandScenarioPaths, loadScenarioFile } from '../../src/scenario/load.js';
import { renderTerminalTable } from '../../src/report/terminal.js';
import { renderMarkdown } from '../../src/report/md.js';
import { renderHtml } from '../../src/report/html.js';
import { STRESS_LABEL } from '../../src/report/notes.js';

/**
 * The default suite's synthetic scenarios are stress tests (docs/scenarios.md): plain generator
 * sessions fitted to no real logs, reported but never averaged into the recommendation.
 */
describe('stress-test scenarios', () => {
  it('every bundled scenario of a generated session is labelled a stress test', async () => {
    const loaded = await Promise.all((await expandScenarioPaths(['scenarios'])).map((file) => loadScenarioFile(file)));
    const synthetic = loaded.filter((l) => typeof l.data.transcript !== 'string');
    expect(synthetic.length).toBeGreaterThan(0);
    expect(synthetic.filter((l) => l.data.stress !== true).map((l) => l.data.name)).toEqual([]);
  });

  it('leaves stress-test units out of the recommendation, and says so in the result', { timeout: 120_000 }, async () => {
    const scenario = (name: string, seed: number, stress: boolean): string =>
      [`name: ${name}`, ...(stress ? ['stress: true'] : []), `transcript: { generate: { steps: 14, seed: ${seed}, toolOutputTokens: 300 } }`, 'window: 6000', 'strategies: [full, rolling-window]'].join('\n');
    const dir = writeFiles({ 'a.yaml': scenario('plain-a', 1, false), 'b.yaml': scenario('plain-b', 2, false), 'c.yaml': scenario('edge', 3, true) });
    const result = await runSuite({ scenarios: [dir] });
    expect(result.scenarios.map((s) => [s.name, s.stress ?? false])).toEqual([
      ['plain-a', false],
      ['plain-b', false],
      ['edge', true],
    ]);
    const named = result.recommendation?.candidates.flatMap((c) => (c.perScenario ?? []).map((s) => s.scenario)) ?? [];
    expect(new Set(named)).toEqual(new Set(['plain-a', 'plain-b']));
    // Every report labels the stress test where it shows it, and only it.
    const terminal = renderTerminalTable(result, { color: false });
    const markdown = renderMarkdown(result).find((f) => f.file === 'summary.md')?.contents ?? '';
    const html = String(renderHtml(result)[0]?.contents ?? '');
    for (const text of [terminal, markdown, html]) expect(text.split(STRESS_LABEL).length - 1).toBe(1);
    expect(terminal).toMatch(new RegExp(`edge +${STRESS_LABEL}`));
  });
});
