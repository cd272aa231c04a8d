import { describe, expect, it } from 'vitest';
import type { SummaryRow } from '../../src/metrics/types.js';
import type { RunResult } from '../../src/metrics/types.js';
import { escapeMarkdown, findNotables, MARKDOWN_LIMIT, renderMarkdown } from '../../src/report/md.js';
import { buildHostileResult } from './hostile-result.js';
import { buildRunResult } from './run-result.js';

function markdown(result = buildRunResult()): string {
  const [file, ...rest] = renderMarkdown(result);
  expect(rest).toEqual([]);
  expect(file?.file).toBe('summary.md');
  return file?.contents ?? '';
}

function row(strategy: string, overrides: Partial<SummaryRow> = {}): SummaryRow {
  const base = buildRunResult().units[1]?.summary;
  if (base === undefined) throw new Error('fixture has two units');
  return { ...base, strategy, ...overrides };
}

describe('summary.md', () => {
  // Nothing to normalise: the result holds no wall time and only relative paths.
  it('matches the snapshot of the hand-built run', () => {
    expect(markdown()).toMatchSnapshot();
  });

  it('is a table GitHub renders: one header, one divider and one line per strategy, same column count', () => {
    const table = markdown()
      .split('\n')
      .filter((line) => line.startsWith('|'));
    expect(table).toHaveLength(4);
    const cells = table.map((line) => line.split(/(?<!\\)\|/).length);
    expect(new Set(cells).size).toBe(1);
  });

  it('stays small enough for a pull-request comment', () => {
    expect(markdown().length).toBeLessThan(2000);
  });

  it('drops the tables, then whole scenarios, rather than outgrow a pull-request comment', () => {
    const many = (count: number): RunResult => {
      const base = buildRunResult();
      const names = Array.from({ length: count }, (_, i) => `scenario-${i}`);
      return {
        ...base,
        scenarios: names.map((name) => ({ ...(base.scenarios[0] ?? ({} as never)), name })),
        units: names.flatMap((name) => base.units.map((unit) => ({ ...unit, scenario: name, summary: { ...unit.summary, scenario: name } }))),
      };
    };
    const medium = markdown(many(120));
    expect(medium.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(medium).toContain('_Tables left out to fit a pull-request comment: see summary.csv or index.html._');
    expect(medium).not.toContain('| strategy |');
    expect(medium).toContain('### scenario-119');
    const huge = markdown(many(400));
    expect(huge.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(huge).toMatch(/_\d+ more scenarios in summary\.csv\._/);
    expect(huge).not.toContain('### scenario-399');
  });

  it('escapes names so that markup and pipes cannot break out of the table', () => {
    const text = markdown(buildHostileResult());
    expect(text).not.toMatch(/<script|<img/);
    expect(text).toContain('rolling &lt;script&gt;window.\\_\\_pwned = 1&lt;/script&gt;');
  });
});

describe('findNotables', () => {
  it('lists crashes, the biggest saving, the best recall and the most 429s', () => {
    const rows = [
      row('full', { crashed: true, crash_kind: 'overflow', crash_step: 40, steps: 64, saving_vs_full: 0, answer_recall: null, rate_limit_hits: 0 }),
      row('a', { saving_vs_full: 0.3, answer_recall: 0.5, rate_limit_hits: 3, wait_ms: 4000 }),
      row('b', { saving_vs_full: 0.6, answer_recall: 0.5, rate_limit_hits: 3, wait_ms: 9000 }),
    ];
    expect(findNotables(rows)).toEqual([
      { kind: 'crash', strategies: ['full'], text: 'crashed (overflow) at step 40 of 64' },
      { kind: 'saving', strategies: ['b'], text: 'saves the most against full: 60% fewer tokens' },
      { kind: 'recall', strategies: ['a', 'b'], text: 'have the best answer recall: 50%' },
      { kind: 'rate-limit', strategies: ['a', 'b'], text: 'hit the most 429s: 3 each, waiting up to 9.0s' },
    ]);
  });

  it('does not praise a saving bought with recall', () => {
    const rows = [row('full', { saving_vs_full: 0, answer_recall: 0.85 }), row('tri-modal', { saving_vs_full: 0.6, answer_recall: 0.1 })];
    expect(findNotables(rows).find((f) => f.kind === 'saving')?.text).toBe("saves the most against full: 60% fewer tokens, but recall 10% vs full's 85%");
    const kept = [row('full', { saving_vs_full: 0, answer_recall: 0.85 }), row('rolling-window', { saving_vs_full: 0.3, answer_recall: 0.82 })];
    expect(findNotables(kept).find((f) => f.kind === 'saving')?.text).toBe('saves the most against full: 30% fewer tokens');
  });

  it('says nothing about savings, recall or 429s that were not measured or did not happen', () => {
    const rows = [
      row('full', { saving_vs_full: 0, answer_recall: null, rate_limit_hits: 0 }),
      row('x', { saving_vs_full: null, answer_recall: null, rate_limit_hits: 0 }),
    ];
    expect(findNotables(rows)).toEqual([]);
  });
});

describe('escapeMarkdown', () => {
  it('escapes pipes, emphasis, code, links and HTML, and flattens line breaks', () => {
    expect(escapeMarkdown('a|b *c* _d_ `e` [f](g) <h>\nnext & more')).toBe('a\\|b \\*c\\* \\_d\\_ \\`e\\` \\[f\\](g) &lt;h&gt; next &amp; more');
  });
});
