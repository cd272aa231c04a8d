import { InputError } from '../errors.js';
import { displayPath } from '../paths.js';
import { loadTranscript } from '../scenario/load-transcript.js';
import { adHocScenario } from '../scenario/ad-hoc.js';
import { scenarioSeed, transcriptSource } from '../scenario/resolve.js';
import { importClaudeSidechains } from '../transcript/claude-sidechains.js';
import type { NeededKind } from '../probes/needed/types.js';
import { checkNeeded, MISS_CAUSES, type MissCause } from './needed-check.js';
import { replayRecordedNeeded } from './needed-replay.js';

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
 * Loads each log as `run` does (its ad-hoc scenario), runs `recorded` over it with the run's own
 * needed-fact measure (needed-replay.ts) and gives each use it did not hold a cause
 * (needed-check.ts); Claude Code logs bring their subagent conversations, so a miss they explain is
 * told apart.
 * @throws InputError (exit 2) when a log does not load, or when no log has a needed use.
 */
export async function validateFiles(paths: readonly string[], options: ValidateOptions = {}): Promise<Validation> {
  const logs: LogValidation[] = [];
  for (const path of paths) {
    const lenient = options.lenient === true;
    const loaded = await adHocScenario(path, options.format);
    const transcript = await loadTranscript(transcriptSource(loaded, { lenient }), scenarioSeed(loaded, {}));
    const sidechains = transcript.header.source?.format === 'claude-code' ? await importClaudeSidechains(path, { lenient }) : [];
    const measured = await replayRecordedNeeded(loaded, transcript, { lenient }, options.minDistance);
    const check = checkNeeded(transcript, measured, { sidechains });
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
