import { describe, expect, it } from 'vitest';
import { describeSeed } from '../../src/report/notes.js';
import { renderMarkdown } from '../../src/report/md.js';
import { renderHtml } from '../../src/report/html.js';
import { buildRunResult } from './run-result.js';

describe('the seed in report headers', () => {
  // The bundled suite's scenarios set seed 23 while the run's default is 42: the header said 42.
  const base = buildRunResult();
  const result = { ...base, seed: 42, scenarios: base.scenarios.map((scenario) => ({ ...scenario, seed: 23 })) };

  it("is each scenario's own seed, not the run's default", () => {
    expect(describeSeed(result)).toBe('seed 23');
    expect(renderMarkdown(result)[0]?.contents).toContain('seed 23 · ctxbench');
    const html = renderHtml(result).find((file) => file.file === 'index.html')?.contents ?? '';
    expect(html).toContain('<dt>seed</dt><dd>23</dd>');
    expect(html).not.toContain('seed 42');
  });

  it('lists every distinct seed when scenarios differ', () => {
    const two = { ...result, scenarios: [...result.scenarios, { ...result.scenarios[0]!, name: 'other', seed: 7 }] };
    expect(describeSeed(two)).toBe('seeds 23, 7');
  });
});
