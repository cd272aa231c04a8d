import { expandScenarioPaths } from '../../src/scenario/load.js';
import { prepareScenarios } from '../../src/run/run-suite.js';
import type { PreparedScenario } from '../../src/run/prepared-scenario.js';

const BUNDLED = 'scenarios';
let bundled: Promise<PreparedScenario[]> | undefined;

/**
 * The bundled scenarios of `folder` (`scenarios`, `scenarios/real`, `scenarios/published`), taken
 * from one preparation of all of them per test worker: three test files read them, and each
 * preparation imports the real logs and generates their probes again (seconds of CPU). Read-only:
 * a test that would change a prepared scenario prepares its own.
 */
export async function preparedBundled(folder: string): Promise<PreparedScenario[]> {
  bundled ??= prepareScenarios([BUNDLED]);
  const [all, files, mine] = await Promise.all([bundled, expandScenarioPaths([BUNDLED]), expandScenarioPaths([folder])]);
  return all.filter((_, i) => mine.includes(files[i] ?? ''));
}
