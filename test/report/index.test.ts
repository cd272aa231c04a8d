import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { renderReports, reporterNames, reporters, resolveReporter } from '../../src/report/index.js';
import { buildRunResult } from './run-result.js';

describe('reporter registry', () => {
  it.each(Object.entries(reporters))('%s: name equals its key and its file name, and it renders', async (key, reporter) => {
    expect(reporter.name).toBe(key);
    expect(existsSync(new URL(`../../src/report/${key}.ts`, import.meta.url))).toBe(true);
    const files = reporter.render(buildRunResult());
    expect(files.length).toBeGreaterThan(0);
    // A binary file (steps.parquet) has its bytes in chunks, and no text.
    for (const file of files) {
      let length = file.bytes === undefined ? file.contents.length : 0;
      for await (const chunk of file.bytes?.() ?? []) length += chunk.length;
      expect(length).toBeGreaterThan(0);
    }
  });

  it('an unknown name is a usage error listing the known ones', () => {
    expect(() => resolveReporter('pdf')).toThrow(UsageError);
    expect(() => resolveReporter('pdf')).toThrow(`known reporters: ${reporterNames().join(', ')}`);
    expect(() => resolveReporter('toString')).toThrow(UsageError);
  });

  it('renderReports renders all reporters by default, or the named ones once each', () => {
    const all = renderReports(buildRunResult()).map((file) => file.file);
    expect(all).toEqual([
      'result.json',
      'summary.csv',
      'steps.csv',
      'events.csv',
      'probes.csv',
      'needed.csv',
      'steps.parquet',
      'index.html',
      'summary.md',
      'junit.xml',
    ]);
    expect(renderReports(buildRunResult(), ['csv', 'csv']).map((file) => file.file)).toEqual([
      'summary.csv',
      'steps.csv',
      'events.csv',
      'probes.csv',
      'needed.csv',
    ]);
    expect(() => renderReports(buildRunResult(), ['json', 'nope'])).toThrow(UsageError);
  });
});
