import type { RunResult, ScenarioInfo } from '../metrics/types.js';

/** What a scenario's numbers depend on: two runs that differ here measured different things. */
const DEFINING = ['seed', 'provider', 'model', 'window', 'steps'] as const satisfies readonly (keyof ScenarioInfo)[];

/**
 * Why two results do not measure the same runs, one reason a line (none: comparable). Different
 * seeds, or a scenario of the same name defined differently (seed, transcript, provider, model,
 * window, steps), or no scenario in common: every unit would "regress" for a reason that is not a
 * regression. Scenarios in only one result are the `missing` rule's business, not a mismatch.
 */
/** One reason two results cannot be compared: the result field and the difference in words. */
export interface Mismatch {
  field: string;
  text: string;
}

export function findMismatches(run: RunResult, baseline: RunResult): Mismatch[] {
  const reasons: Mismatch[] = [];
  if (run.seed !== baseline.seed) reasons.push({ field: 'seed', text: `seed ${run.seed} in the run, ${baseline.seed} in the baseline` });
  const before = new Map(baseline.scenarios.map((s) => [s.name, s]));
  const shared = run.scenarios.filter((s) => before.has(s.name));
  if (shared.length === 0 && run.scenarios.length > 0 && baseline.scenarios.length > 0) reasons.push({ field: 'scenarios', text: 'no scenario in common' });
  for (const now of shared) {
    const then = before.get(now.name) as ScenarioInfo;
    const transcript = transcriptMismatch(now, then);
    if (transcript !== undefined) reasons.push(transcript);
    for (const field of DEFINING) {
      if (now[field] !== then[field])
        reasons.push({
          field: `scenarios.${now.name}.${field}`,
          text: `scenario ${now.name}: ${field} ${String(now[field])} in the run, ${String(then[field])} in the baseline`,
        });
    }
  }
  return reasons;
}

/**
 * Transcripts compare by content where both results hold the same kind of digest (the same log at
 * another path is the same log; another log at the same path is not): the transcript's as read, or
 * a corpus's of its files. Else by path, as results of before did: a corpus baseline written
 * before `logFilesSha256` holds only the other digest, which a run no longer makes of a corpus.
 */
function transcriptMismatch(now: ScenarioInfo, then: ScenarioInfo): Mismatch | undefined {
  const field = `scenarios.${now.name}.transcript`;
  const digests = (['logFilesSha256', 'transcriptSha256'] as const).find((key) => now[key] !== undefined && then[key] !== undefined);
  if (digests !== undefined) {
    if (now[digests] === then[digests]) return undefined;
    const at = now.transcript === then.transcript ? ` (both at ${now.transcript})` : ` (${now.transcript} in the run, ${then.transcript} in the baseline)`;
    return { field, text: `scenario ${now.name}: the transcripts differ in content${at}` };
  }
  if (now.transcript === then.transcript) return undefined;
  return { field, text: `scenario ${now.name}: transcript ${now.transcript} in the run, ${then.transcript} in the baseline` };
}
