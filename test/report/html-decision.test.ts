import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/metrics/types.js';
import { renderHtml } from '../../src/report/html.js';
import { buildRunResult } from './run-result.js';
import { corpusDecisionRun, narrowDecisionRun, wideDecisionRun } from './decision-result.js';

const page = (result: RunResult): string => renderHtml(result)[0]?.contents ?? '';
const decision = (html: string): string => /<section class="decision".*?<\/section>/s.exec(html)?.[0] ?? '';
const rowsOf = (section: string): string[] => [...section.matchAll(/<tr data-strategy="([^"]+)"/g)].map((m) => m[1] as string);

describe('the decision table', () => {
  it('opens the page: the strategy to ship, then every strategy ranked with its verdict and reason', () => {
    const result = wideDecisionRun();
    const html = page(result);
    const section = decision(html);
    expect(html.indexOf('<section class="decision"')).toBeLessThan(html.indexOf('<section class="scenario"'));
    expect(section).toContain(`Ship <strong>${result.recommendation?.strategy}</strong>`);
    const ranked = [...(result.recommendation?.candidates ?? [])].sort((a, b) => a.rank - b.rank).map((c) => c.strategy);
    expect(rowsOf(section)).toEqual(ranked);
    expect(section).toMatch(/<tr data-strategy="tri-modal" class="excluded">.*<span class="badge bad">crashes<\/span>.*crashed \(overflow at step 93\)/);
    expect(section).toMatch(/<tr data-strategy="rolling-window-short" class="excluded">.*unsafe: recall.*recall 41 % vs full&#39;s 50 %/);
    expect(section).toMatch(/<tr data-strategy="rolling-window" class="recommended">/);
  });

  it('falls back to the summary rows, ranked by cost and without verdicts, for a result without a recommendation', () => {
    const result = buildRunResult();
    expect(result.recommendation).toBeUndefined();
    const section = decision(page(result));
    expect(section).toContain('carries no recommendation');
    expect(section).not.toContain('class="badge');
    expect(rowsOf(section)).toHaveLength(2);
    // The crashed strategy's reason, in the words of its crash event.
    expect(section).toContain('overflow at step 2: The input token count (9300) exceeds the maximum number of tokens allowed (8000)');
  });

  it('shows a crash in words in the summary table, from the crash event', () => {
    const table = /<table class="summary sortable">.*?<\/table>/s.exec(page(buildRunResult()))?.[0] ?? '';
    expect(table).toMatch(/overflow @ step 2<\/span> overflow: The input token count \(9300\) exceeds the maximum number of tokens allowed \(8000\)/);
  });

  it('offers highlight buttons with the recommended strategy and the baselines pressed, for more than four strategies', () => {
    const html = page(wideDecisionRun());
    const pressed = [...html.matchAll(/<button type="button" class="chip" data-strategy="([^"]+)" aria-pressed="true">/g)].map((m) => m[1]);
    expect(pressed.sort()).toEqual(['full', 'recorded', 'rolling-window', 'surgical-eviction']);
    expect(page(narrowDecisionRun())).not.toContain('class="chip"');
  });
});

describe('a corpus', () => {
  const result = corpusDecisionRun(500);
  const html = page(result);

  it('stays under 10 MB with aggregate views and no per-step chart or per-event timeline', () => {
    expect(html.length).toBeLessThan(10 * 2 ** 20);
    expect(html).not.toMatch(/data-chart="scenario-0-context"/);
    expect(html).not.toContain('<details class="timeline"');
    expect(html).toMatch(/data-chart="scenario-0-spread-saving"/);
    expect(html).toMatch(/data-chart="scenario-0-spread-recall"/);
  });

  it('carries every log for the drill-down, and the crashes in words', () => {
    const data = JSON.parse(/<script type="application\/json" id="scenario-0-log-data">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}') as {
      logs: unknown[];
      cells: unknown[][];
    };
    expect(data.logs).toHaveLength(500);
    expect(data.cells[0]).toHaveLength(result.units.length);
    expect(html).toMatch(
      /<strong>tri-modal<\/strong> crashed on 71 of 500 logs: overflow: prepare\(\) returned a context over the window at step N <span class="dim">\(× 71\)<\/span>/,
    );
  });
});

describe('any number of points', () => {
  it('renders a unit of 200,000 steps (no array is spread into a call)', () => {
    const result = buildRunResult();
    const units = result.units.map((unit) => {
      const last = unit.steps.at(-1);
      if (unit.strategy !== 'rolling-window' || last === undefined) return unit;
      return { ...unit, steps: Array.from({ length: 200_000 }, (_, n) => ({ ...last, step: n, atMs: n * 1000, contextTokens: 1000 + (n % 500) })) };
    });
    expect(() => renderHtml({ ...result, units })).not.toThrow();
  });

  it('has no spread of an array into a call in the renderers and the engine', () => {
    const spread = /\b(?:Math\.(?:max|min)\([^)]*\.\.\.|\.(?:push|unshift)\(\s*\.\.\.)/;
    const offenders: string[] = [];
    for (const folder of ['src/report', 'src/replay', 'src/run']) {
      const dir = resolve(import.meta.dirname, '../..', folder);
      for (const name of readdirSync(dir).filter((file) => file.endsWith('.ts'))) {
        readFileSync(join(dir, name), 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (spread.test(line)) offenders.push(`${folder}/${name}:${i + 1}`);
          });
      }
    }
    expect(offenders).toEqual([]);
  });
});
