import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/**
 * The source of Chart.js's UMD bundle (`dist/chart.umd.js` beside the package's resolved entry),
 * read once per process. The HTML report inlines it so that the page opens offline.
 */
export function readChartScript(): string {
  if (cached === undefined) {
    const entry = createRequire(import.meta.url).resolve('chart.js');
    cached = readFileSync(join(dirname(entry), 'chart.umd.js'), 'utf8');
  }
  return cached;
}
