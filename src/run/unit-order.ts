import type { Transcript } from '../transcript/types.js';
import type { PreparedScenario } from './prepared-scenario.js';
import { scenarioKey, type PlannedUnit } from './plan.js';

/** The scenarios of a run as prepared, by `scenarioKey`: what the order weighs. */
type Prepared = ReadonlyMap<string, PreparedScenario> | undefined;

/**
 * The units of a run as threads take them: each thread takes the heaviest unit left of a scenario
 * it already holds, else of a scenario no thread has started, else any (a thread that would idle
 * helps with another's scenario). A scenario's texts are then tokenized, indexed and read by one
 * thread rather than by every thread: taking units in plain heaviest-first order had both threads
 * start on the heaviest scenario and do that work twice. With `ready`, only units of those
 * scenarios are taken (none: the thread waits for the next scenario to be finished).
 */
export function unitQueue(
  units: readonly PlannedUnit[],
  prepared: Prepared,
): { next(held: ReadonlySet<string>, ready?: ReadonlySet<string>): PlannedUnit | undefined } {
  const order = longestFirst(units, prepared).map((unit) => ({ unit, key: scenarioKey(unit.scenario) }));
  const begun = new Set<string>();
  return {
    next(held, ready) {
      const at = [(key: string) => held.has(key), (key: string) => !begun.has(key), () => true]
        .map((wanted) => order.findIndex(({ key }) => (ready === undefined || ready.has(key)) && wanted(key)))
        .find((i) => i >= 0);
      if (at === undefined) return undefined;
      const [{ unit, key }] = order.splice(at, 1) as [{ unit: PlannedUnit; key: string }];
      begun.add(key);
      return unit;
    },
  };
}

/**
 * The order this thread finishes the scenarios in while threads run: those of one transcript
 * first (their probes take a fraction of a second), heaviest first, then those of several logs,
 * so that no thread waits at the start for the probes of a scenario of many logs.
 */
export function completionOrder(units: readonly PlannedUnit[], prepared: Prepared): string[] {
  const keys = [...new Set(longestFirst(units, prepared).map((unit) => scenarioKey(unit.scenario)))];
  const several = (key: string): boolean => prepared?.get(key)?.logs !== undefined;
  return [...keys.filter((key) => !several(key)), ...keys.filter(several)];
}

/**
 * The units in the order the threads take them: the heaviest first (by the characters their
 * requests re-send, summed over steps), so that no long session starts last and keeps one thread
 * busy while the others idle. Only the order of work changes: results are put back by index.
 */
export function longestFirst(units: readonly PlannedUnit[], prepared: Prepared): PlannedUnit[] {
  const weights = new Map<string, number>();
  const weightOf = (unit: PlannedUnit): number => {
    const key = scenarioKey(unit.scenario);
    let weight = weights.get(key);
    if (weight === undefined) {
      const scenario = prepared?.get(key);
      const logs = scenario === undefined ? [] : (scenario.logs?.map((log) => log.transcript) ?? [scenario.transcript]);
      weight = logs.reduce((n, transcript) => n + resentCharacters(transcript), 0);
      weights.set(key, weight);
    }
    return weight;
  };
  return units
    .map((unit, position) => ({ unit, position, weight: weightOf(unit) }))
    .sort((a, b) => b.weight - a.weight || a.position - b.position)
    .map(({ unit }) => unit);
}

/** The characters of a transcript's messages summed over the steps that send them (a replay's work grows so). */
function resentCharacters(transcript: Transcript): number {
  let context = 0;
  let total = 0;
  for (const event of transcript.events) {
    if (event.type !== 'message') continue;
    if (event.role === 'assistant') total += context;
    context += event.text.length;
  }
  return total;
}
