import { dirname, sep } from 'node:path';
import { InputError } from '../errors.js';
import { displayPath } from '../paths.js';
import type { LoadedScenario } from './load.js';

/**
 * The scenarios of one run, each under a name of its own: results, reports and `summary.csv` are
 * keyed by the scenario's name, so two scenarios sharing one would be measured against each
 * other's `full` and merged in every table.
 *
 * - The same file given twice (`run dir/ dir/a.yaml`) runs once.
 * - Two scenario files that claim one `name:` are refused (InputError, exit 2), naming both: which
 *   one the user meant is theirs to say.
 * - A transcript given where a scenario is expected takes its name from its file name, and a folder
 *   of logs (`~/.claude/projects/<project>/`) often holds same-named files: such a name is made
 *   distinct by the folders it came from (`d1/x.ctx.jsonl`, `d2/x.ctx.jsonl` → `d1-x`, `d2-x`),
 *   or, for files of one folder whose names differ only in what a name cannot hold (`a b` beside
 *   `a-b`), by its rank among them (`a-b-1`, `a-b-2`). The ad-hoc note printed before the run
 *   shows each transcript's path beside its name.
 */
export function distinctScenarios(loaded: readonly LoadedScenario[]): LoadedScenario[] {
  const seen = new Set<string>();
  const unique = loaded.filter((scenario) => !seen.has(scenario.file) && seen.add(scenario.file));
  refuseSharedNames(unique.filter((scenario) => scenario.adHoc !== true));
  const taken = new Set(unique.filter((scenario) => scenario.adHoc !== true).map((scenario) => scenario.data.name));
  const adHocByName = new Map<string, LoadedScenario[]>();
  for (const scenario of unique) {
    if (scenario.adHoc !== true) continue;
    adHocByName.set(scenario.data.name, [...(adHocByName.get(scenario.data.name) ?? []), scenario]);
  }
  const colliding = [...adHocByName].filter(([name, group]) => group.length > 1 || taken.has(name));
  // Names no collision touches stay as they are, and no new name may take one of them.
  for (const [name, group] of adHocByName) if (group.length === 1) taken.add(name);
  const renamed = new Map<LoadedScenario, string>();
  for (const [name, group] of colliding) {
    const names = namesByFolder(name, group, taken) ?? group.map((_, i) => freeName(`${name}-${i + 1}`, taken));
    group.forEach((scenario, i) => renamed.set(scenario, names[i] as string));
  }
  return unique.map((scenario) => {
    const name = renamed.get(scenario);
    return name === undefined ? scenario : { ...scenario, data: { ...scenario.data, name } };
  });
}

function refuseSharedNames(files: readonly LoadedScenario[]): void {
  const byName = new Map<string, LoadedScenario>();
  for (const scenario of files) {
    const first = byName.get(scenario.data.name);
    if (first !== undefined) {
      throw new InputError(
        { file: displayPath(scenario.file), field: 'name' },
        `the scenario name "${scenario.data.name}" is taken by ${displayPath(first.file)} too: each scenario of a run needs a name of its own (results are keyed by it)`,
      );
    }
    byName.set(scenario.data.name, scenario);
  }
}

/**
 * `name` prefixed by the fewest trailing folders of each file's path that tell the files apart,
 * or undefined when two of them are in one folder (no folder tells them apart).
 */
function namesByFolder(name: string, group: readonly LoadedScenario[], taken: Set<string>): string[] | undefined {
  const folders = group.map((scenario) =>
    dirname(scenario.file)
      .split(sep)
      .filter((part) => part !== ''),
  );
  const deepest = Math.max(...folders.map((parts) => parts.length));
  for (let depth = 1; depth <= deepest; depth++) {
    const names = folders.map((parts) => asName([...parts.slice(-depth), name].join('-')));
    if (new Set(names).size === names.length && names.every((candidate) => !taken.has(candidate))) {
      for (const candidate of names) taken.add(candidate);
      return names;
    }
  }
  return undefined;
}

/** A name the scenario schema accepts: letters, digits, dot, dash, underscore, starting with a letter or digit. */
function asName(text: string): string {
  return text.replace(/[^a-z0-9._-]+/gi, '-').replace(/^[^a-z0-9]+/i, '');
}

function freeName(candidate: string, taken: Set<string>): string {
  let name = candidate;
  for (let n = 2; taken.has(name); n++) name = `${candidate}.${n}`;
  taken.add(name);
  return name;
}
