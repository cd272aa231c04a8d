import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/metrics/types.js';
import { renderHtml } from '../../src/report/html.js';
import { Browser, findChromium } from './browser/cdp.js';
import { inspectPage, VIEWPORT, type PageReport } from './browser/page.js';
import { longRun } from './long-run.js';
import { corpusDecisionRun, narrowDecisionRun, wideDecisionRun } from './decision-result.js';
import { buildHostileResult } from './hostile-result.js';
import { runScenarios, unexplainedIdenticalRows, type RowsByScenario } from '../scenarios/identical-rows.js';

const chromium = findChromium();
/** Where the screenshots of the decision-first report are also saved when asked (docs/img, by hand). */
const SCREENSHOTS = process.env.CTXBENCH_SCREENSHOTS;
/** A wide laptop or desktop window, as issue 27 looks at the report. */
const WIDE = { width: 1400, height: 900 };
const OUTPUT = resolve(import.meta.dirname, '../.output/report');
/** Running the whole default suite takes a while on a busy machine. */
const SUITE_TIMEOUT_MS = 240_000;

/** Writes the report of `result` into a fresh folder and returns its file URL. */
function writeReport(result: RunResult, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ctxbench-html-${name}-`));
  const [file] = renderHtml(result);
  if (file === undefined) throw new Error('renderHtml wrote nothing');
  const path = join(dir, file.file);
  writeFileSync(path, file.contents);
  return pathToFileURL(path).href;
}

/**
 * The bundled synthetic scenarios as `npm start` runs them (every strategy; they exercise every
 * chart: overflow, 429s, probes, compactions). One run, about 20 s of CPU, serves the default-suite
 * report below and the check that their summary rows repeat only where their files say why (the
 * rule of test/scenarios/real-identical-rows.test.ts), which runs with or without a browser.
 */
const SYNTHETIC = ['overflow-coding.yaml', 'tpm-limited.yaml', 'recall-fits.yaml'].map((f) => resolve(import.meta.dirname, '../../scenarios', f));
let syntheticRun: Promise<RowsByScenario> | undefined;
const bundledSynthetic = (): Promise<RowsByScenario> => (syntheticRun ??= runScenarios(SYNTHETIC));

describe('the bundled synthetic scenarios', () => {
  it('have no identical summary rows that their files do not explain', { timeout: SUITE_TIMEOUT_MS }, async () => {
    const run = await bundledSynthetic();
    expect(run.byScenario.size).toBe(SYNTHETIC.length);
    expect(unexplainedIdenticalRows(run)).toEqual([]);
  });
});

describe.skipIf(chromium === undefined)('the HTML report in headless Chromium (skipped: no chromium binary; apt-get install chromium)', () => {
  let browser: Browser;
  let profile: string;

  beforeAll(() => {
    profile = mkdtempSync(join(tmpdir(), 'ctxbench-chromium-'));
    browser = Browser.launch(chromium ?? '', profile);
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  describe('for the default suite', () => {
    let url: string;
    let page: PageReport;

    beforeAll(async () => {
      // The synthetic scenarios exercise every chart (overflow, 429s, probes, compactions); the real
      // ones add only more of the same and would double the test's time.
      url = writeReport((await bundledSynthetic()).result, 'suite');
      page = await inspectPage(browser, url);
      mkdirSync(OUTPUT, { recursive: true });
      writeFileSync(join(OUTPUT, 'default-suite.png'), page.screenshot);
      writeFileSync(join(OUTPUT, 'default-suite-first-screen.png'), page.firstScreen);
    }, SUITE_TIMEOUT_MS);

    it('loads without a console error or exception', () => {
      expect(page.errors).toEqual([]);
    });

    it('requests nothing but the file itself', () => {
      expect(page.requests).toEqual([url]);
    });

    it('saves screenshots of the whole page and of its first screen', () => {
      expect(page.screenshot.subarray(1, 4).toString()).toBe('PNG');
      expect(page.firstScreen.readUInt32BE(16)).toBe(1366);
      expect(page.screenshot.readUInt32BE(20)).toBeGreaterThan(768);
    });

    it('draws every chart canvas', () => {
      expect(page.canvases.length).toBeGreaterThanOrEqual(6);
      for (const canvas of page.canvases) {
        expect(canvas.chart, 'every canvas is a report chart').not.toBe('');
        expect(canvas.width * canvas.height, `${canvas.chart} has a size`).toBeGreaterThan(0);
        // A blank canvas paints nothing; axes alone are a few percent, curves more.
        expect(canvas.painted / (canvas.width * canvas.height), `${canvas.chart} is drawn`).toBeGreaterThan(0.01);
      }
    });

    it('sorts a summary table when a header is clicked', async () => {
      const order = await page.evaluate(`(() => {
        const table = document.querySelector('table.summary');
        const index = Array.from(table.tHead.rows[0].cells).findIndex((th) => th.textContent === 'total');
        const header = table.tHead.rows[0].cells[index];
        const totals = () => Array.from(table.tBodies[0].rows).map((row) => Number(row.cells[index].dataset.sort));
        header.click();
        const up = totals();
        const upSort = header.getAttribute('aria-sort');
        header.click();
        return { up, upSort, down: totals(), downSort: header.getAttribute('aria-sort') };
      })()`);
      const { up, upSort, down, downSort } = order as { up: number[]; upSort: string; down: number[]; downSort: string };
      expect(up.length).toBeGreaterThan(1);
      expect(up).toEqual([...up].sort((a, b) => a - b));
      expect(down).toEqual([...up].reverse());
      expect([upSort, downSort]).toEqual(['ascending', 'descending']);
    });
  });

  describe('for a result full of markup', () => {
    it('shows the markup as text: no element, no request, no script runs', async () => {
      const url = writeReport(buildHostileResult(), 'hostile');
      const page = await inspectPage(browser, url);
      expect(page.requests).toEqual([url]);
      expect(page.errors).toEqual([]);
      const state = (await page.evaluate(`({
        images: document.querySelectorAll('img').length,
        scripts: document.querySelectorAll('script').length,
        pwned: typeof window.__pwned,
        text: document.body.innerText.includes('<script>window.__pwned = 1</script>'),
      })`)) as Record<string, unknown>;
      expect(state).toEqual({ images: 0, scripts: 3, pwned: 'undefined', text: true });
    });
  });

  describe('for three scenarios × every registered strategy', () => {
    it('fits the overview on a laptop screen without sideways scrolling, and draws the cross-scenario chart', async () => {
      const page = await inspectPage(browser, writeReport(longRun(40, ['alpha', 'beta', 'gamma-with-a-longer-name']), 'wide'));
      expect(page.errors).toEqual([]);
      mkdirSync(OUTPUT, { recursive: true });
      writeFileSync(join(OUTPUT, 'overview-21-strategies.png'), page.firstScreen);
      const widths = (await page.evaluate(`(() => {
        const table = document.querySelector('table.overview-table');
        return { page: document.documentElement.scrollWidth, viewport: window.innerWidth, table: table.scrollWidth, box: table.parentElement.clientWidth };
      })()`)) as { page: number; viewport: number; table: number; box: number };
      expect(widths.viewport).toBe(VIEWPORT.width);
      expect(widths.page).toBeLessThanOrEqual(widths.viewport);
      expect(widths.table).toBeLessThanOrEqual(widths.box);
      expect(page.canvases.find((canvas) => canvas.chart === 'overview-tradeoff')?.painted).toBeGreaterThan(1000);
    });
  });

  describe.each([
    ['22 strategies', 'report-22-strategies', wideDecisionRun],
    ['3 strategies', 'report-3-strategies', narrowDecisionRun],
    ['a corpus of 500 logs × 21 strategies', 'report-corpus', corpusDecisionRun],
  ])('with the decision table first, for %s', (_, name, build) => {
    let page: PageReport;
    let size: number;

    beforeAll(async () => {
      const result = build();
      const url = writeReport(result, name);
      size = renderHtml(result)[0]?.contents.length ?? 0;
      page = await inspectPage(browser, url, WIDE);
      mkdirSync(OUTPUT, { recursive: true });
      writeFileSync(join(OUTPUT, `${name}.png`), page.screenshot);
      writeFileSync(join(OUTPUT, `${name}-first-screen.png`), page.firstScreen);
      if (SCREENSHOTS !== undefined) writeFileSync(join(resolve(SCREENSHOTS), `${name}.png`), page.firstScreen);
    }, SUITE_TIMEOUT_MS);

    it('loads without an error, draws its charts, and does not scroll sideways', async () => {
      expect(page.errors).toEqual([]);
      for (const canvas of page.canvases) expect(canvas.painted, `${canvas.chart} is drawn`).toBeGreaterThan(1000);
      const widths = (await page.evaluate('({ page: document.documentElement.scrollWidth, viewport: window.innerWidth })')) as {
        page: number;
        viewport: number;
      };
      expect(widths.page).toBeLessThanOrEqual(widths.viewport);
      expect(size).toBeLessThan(10 * 2 ** 20);
    });

    it('shows the decision table above the fold: its head and the recommended row on the first screen', async () => {
      const place = (await page.evaluate(`(() => {
        const table = document.querySelector('section.decision table');
        const row = table && table.querySelector('tr.recommended');
        const box = (el) => el && el.getBoundingClientRect();
        const line = document.querySelector('.verdict-line');
        return {
          fold: window.innerHeight,
          first: document.querySelector('main > section').className,
          table: box(table) && box(table).top,
          row: box(row) && { top: box(row).top, bottom: box(row).bottom, visible: getComputedStyle(row).visibility },
          says: line && line.textContent,
        };
      })()`)) as { fold: number; first: string; table: number; row: { top: number; bottom: number; visible: string } | null; says: string };
      expect(place.first).toBe('decision');
      expect(place.table).toBeLessThan(place.fold / 2);
      expect(place.row).not.toBeNull();
      expect(place.row?.bottom).toBeLessThanOrEqual(place.fold);
      expect(place.row?.visible).toBe('visible');
      expect(place.says).toMatch(/^Ship \S+/);
    });

    it('fades the strategies that are not highlighted, and draws one strong when its button is pressed', async () => {
      const state = (await page.evaluate(`(() => {
        const chips = Array.from(document.querySelectorAll('button.chip'));
        if (chips.length === 0) return { chips: 0 };
        const pressed = chips.filter((c) => c.getAttribute('aria-pressed') === 'true').map((c) => c.dataset.strategy);
        const chart = Object.values(Chart.instances).find((c) => c.data.datasets.some((d) => d.strategy || (d.label && pressed.includes(d.label))));
        const colorOf = (name) => { const d = chart.data.datasets.find((x) => (x.strategy || x.label) === name); return d && d.borderColor; };
        const other = chips.find((c) => c.getAttribute('aria-pressed') === 'false');
        const before = colorOf(other.dataset.strategy);
        other.click();
        const after = colorOf(other.dataset.strategy);
        other.click();
        return { chips: chips.length, pressed, before, after, strong: colorOf(pressed[0]) };
      })()`)) as { chips: number; pressed?: string[]; before?: string; after?: string; strong?: string };
      if (state.chips === 0) return;
      expect(state.pressed).toContain('full');
      expect(state.before).toMatch(/^#[0-9a-f]{6}30$/);
      expect(state.after).toMatch(/^#[0-9a-f]{6}$/);
      expect(state.strong).toMatch(/^#[0-9a-f]{6}$/);
    });
  });
});
