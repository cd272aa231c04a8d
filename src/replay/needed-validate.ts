import { InputError } from '../errors.js';
import { displayPath } from '../paths.js';
import { loadTranscript } from '../scenario/load-transcript.js';
import { importClaudeSidechains } from '../transcript/claude-sidechains.js';
import type { NeededKind } from '../probes/needed/types.js';
import { checkNeeded, MISS_CAUSES, type MissCause } from './needed-check.js';

/** One missed use, as `validate` shows it. */
interface MissExample {
  readonly fact: string;
  readonly kind: NeededKind;
  readonly sourceStep: number;
  readonly useStep: number;
}

/** `validate` on one log: its needed uses, those `recorded` held, the misses by cause with examples. */
export interface LogValidation {
  readonly file: string;
  readonly steps: number;
  readonly compactions: number;
  readonly needed: number;
  readonly present: number;
  readonly missing: Partial<Record<MissCause, number>>;
  readonly examples: Partial<Record<MissCause, readonly MissExample[]>>;
}

export interface Validation {
  readonly logs: readonly LogValidation[];
  readonly pooled: { readonly needed: number; readonly present: number; readonly missing: Partial<Record<MissCause, number>> };
}

/** How many missed uses of each cause a log shows. */
const EXAMPLES_PER_CAUSE = 3;

export interface ValidateOptions {
  readonly lenient?: boolean;
  readonly format?: string;
  readonly minDistance?: number;
}

/**
 * Loads each log, replays `recorded` over it and checks each needed use (needed-check.ts); Claude
 * Code logs bring their subagent conversations, so a miss they explain is told apart.
 * @throws InputError (exit 2) when a log does not load, or when no log has a needed use.
 */
export async function validateFiles(paths: readonly string[], options: ValidateOptions = {}): Promise<Validation> {
  const logs: LogValidation[] = [];
  for (const path of paths) {
    const lenient = options.lenient === true;
    const transcript = await loadTranscript({ kind: 'file', path, lenient, ...(options.format !== undefined ? { format: options.format } : {}) }, 0);
    const sidechains = transcript.header.source?.format === 'claude-code' ? await importClaudeSidechains(path, { lenient }) : [];
    const check = checkNeeded(transcript, { sidechains, ...(options.minDistance !== undefined ? { minDistance: options.minDistance } : {}) });
    const missing: Partial<Record<MissCause, number>> = {};
    const examples: Partial<Record<MissCause, MissExample[]>> = {};
    for (const { use, cause } of check.misses) {
      missing[cause] = (missing[cause] ?? 0) + 1;
      const list = (examples[cause] ??= []);
      if (list.length < EXAMPLES_PER_CAUSE) list.push({ fact: use.fact, kind: use.kind, sourceStep: use.sourceStep, useStep: use.useStep });
    }
    logs.push({ file: displayPath(path), steps: check.steps, compactions: check.compactions, needed: check.needed, present: check.present, missing, examples });
  }
  const pooled = { needed: 0, present: 0, missing: {} as Partial<Record<MissCause, number>> };
  for (const log of logs) {
    pooled.needed += log.needed;
    pooled.present += log.present;
    for (const cause of MISS_CAUSES) if (log.missing[cause] !== undefined) pooled.missing[cause] = (pooled.missing[cause] ?? 0) + (log.missing[cause] ?? 0);
  }
  if (pooled.needed === 0) {
    throw new InputError(
      { file: paths.length === 1 ? displayPath(paths[0] ?? '') : `${paths.length} logs` },
      'no needed fact in any log: nothing to validate (a fact must be used at least --min-distance steps after it was last seen)',
    );
  }
  return { logs, pooled };
}
