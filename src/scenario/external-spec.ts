import { basename, dirname, extname } from 'node:path';
import type { StrategySpec } from './types.js';
import { resolveRelative } from './load.js';
import { InputError } from '../errors.js';
import { DEFAULT_STRATEGY_TIMEOUT_MS } from '../strategies/external/bounded.js';

/** A scenario's strategy entry, as written (a registered strategy, a pipeline, a module or a command). */
export interface ExternalEntry {
  label?: string;
  strategy?: string;
  options?: Record<string, unknown>;
  pipeline?: unknown[];
  module?: string;
  command?: string[];
  timeoutMs?: number;
}

/**
 * The spec of a scenario entry with `module:` or `command:` (undefined for any other entry). The
 * module path is resolved against the scenario file; a command runs in the scenario's folder, so
 * its relative arguments (`my_policy.py`) are relative to the scenario too.
 */
export function externalSpec(entry: ExternalEntry, file: string, field: string): StrategySpec | undefined {
  if (entry.module === undefined && entry.command === undefined) {
    if (entry.timeoutMs !== undefined) throw new InputError({ file, field: `${field}.timeoutMs` }, '`timeoutMs` goes with `module` or `command`');
    return undefined;
  }
  const clash = (['strategy', 'pipeline', entry.module !== undefined ? 'command' : undefined] as const).find(
    (key) => key !== undefined && entry[key] !== undefined,
  );
  if (clash !== undefined)
    throw new InputError({ file, field: `${field}.${clash}` }, 'an entry names one strategy: `strategy`, `pipeline`, `module` or `command`');
  if (entry.module !== undefined) return moduleSpec(resolveRelative(file, entry.module), entry.label, entry.options ?? {}, entry.timeoutMs);
  const argv = entry.command as string[];
  const label = entry.label ?? labelOfPath(argv[argv.length - 1] as string);
  return {
    label,
    strategy: label,
    options: entry.options ?? {},
    source: { kind: 'command', argv, cwd: dirname(file), timeoutMs: entry.timeoutMs ?? DEFAULT_STRATEGY_TIMEOUT_MS },
  };
}

/** The spec of a strategy module at an absolute path (a scenario entry or `--strategy-module`). */
export function moduleSpec(path: string, label: string | undefined, options: Record<string, unknown>, timeoutMs?: number): StrategySpec {
  const name = label ?? labelOfPath(path);
  return { label: name, strategy: name, options, source: { kind: 'module', path, ...(timeoutMs !== undefined ? { timeoutMs } : {}) } };
}

/** `./policies/my-policy.mjs` → `my-policy`: the default label of a module or command. */
function labelOfPath(path: string): string {
  return basename(path, extname(path));
}
