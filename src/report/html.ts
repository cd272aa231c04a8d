import type { RunResult } from '../metrics/types.js';
import { readChartScript } from './html-chart-script.js';
import { renderHtmlPage } from './html-page.js';
import type { ReportFile, Reporter } from './types.js';

/**
 * `index.html`: the self-contained report (header, per scenario the summary table, charts,
 * timelines and probe answers) that opens offline. Chart.js comes from the installed package.
 */
export function renderHtml(result: RunResult): ReportFile[] {
  return [{ file: 'index.html', contents: renderHtmlPage(result, readChartScript()) }];
}

export const html = { name: 'html', render: renderHtml } satisfies Reporter;
