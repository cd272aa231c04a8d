import { UsageError } from '../errors.js';
import { csv } from './csv.js';
import { html } from './html.js';
import { json, storedDetails, storedForm } from './json.js';
import { junit } from './junit.js';
import { md } from './md.js';
import { parquet } from './parquet.js';
import type { RunResult } from '../metrics/types.js';
import { detailsOf, type ReportFile, type Reporter, type UnitDetails } from './types.js';

export type { ReportFile, Reporter, UnitDetails } from './types.js';

/** Every file reporter by name; a new format is one file in `src/report/` and one line here. */
export const reporters = { json, csv, parquet, html, md, junit } satisfies Record<string, Reporter>;

type ReporterName = keyof typeof reporters;

/** Names of the registered reporters, in registry order. */
export function reporterNames(): string[] {
  return Object.keys(reporters);
}

/** The reporter called `name`; an unknown name is a usage error that lists the known ones. */
export function resolveReporter(name: string): Reporter {
  if (!Object.hasOwn(reporters, name)) {
    throw new UsageError(`unknown reporter "${name}"; known reporters: ${reporterNames().join(', ')}`);
  }
  return reporters[name as ReporterName];
}

/**
 * Renders `result` with the named reporters (all of them when `names` is omitted), in the order
 * given. Every name is resolved before anything renders, so a typo fails fast. `details`: the
 * whole units of a result whose units are summary-only (read as the files are written).
 */
export function renderReports(result: RunResult, names: readonly string[] = reporterNames(), details?: UnitDetails): ReportFile[] {
  const chosen = [...new Set(names)].map(resolveReporter);
  const stored = storedForm(result);
  const whole = details === undefined ? detailsOf(stored) : storedDetails(stored, details);
  return chosen.flatMap((reporter) => reporter.render(stored, whole));
}
