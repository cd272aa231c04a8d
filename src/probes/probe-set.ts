import type { MessageEvent, Probe, ProbeExpectation, Transcript } from '../transcript/types.js';
import { firstVisibleStep } from '../transcript/structure.js';
import { messageText } from './context-text.js';
import { prepareProbe, type PreparedProbe } from './retention.js';
import { extractSpecifics, type Specifics } from './specifics.js';
import { normaliseAnswer } from './grade.js';
import type { NeededUse } from './needed/types.js';
import { lastNeededSteps, prepareNeededSet, type NeededSet } from './needed/measure.js';

/** A probe with what measuring it needs, computed once per scenario and shared by its units. */
export interface MeasuredProbe {
  probe: Probe;
  /** The ground truth as text, for reports. */
  expected: string;
  /** Evidence messages found in the transcript (ids that match none are left out). */
  evidence: MessageEvent[];
  /**
   * The first step whose context could hold every evidence message (structure.ts
   * `firstVisibleStep` of the last one); undefined when no evidence id matches a message, and
   * then the probe has no retention curve (there is no step its fact appeared at).
   */
  visibleFrom?: number;
  prepared: PreparedProbe;
  /** Steps of its `{step: n}` ask points. */
  askSteps: ReadonlySet<number>;
  askAtEnd: boolean;
  askAfterCompaction: boolean;
  /** Where its evidence lies: a tool's output, or what the agent wrote (no evidence found: `agent`). */
  source: 'output' | 'agent';
  /** `Probe.superseded`, normalised (grade.ts `normaliseAnswer`), for the `stale` outcome. */
  superseded: readonly string[];
  /** The last step at which the session uses the probe's fact (needed/measure.ts `lastNeededSteps`); absent: never, or not computed. */
  lastNeededStep?: number;
}

/** The probes of a scenario and the verbatim specifics of its transcript. */
export interface ProbeSet {
  probes: MeasuredProbe[];
  specifics: Specifics;
  /** Steps in the transcript (assistant messages). */
  steps: number;
  /** The transcript's needed uses, measured on every unit (docs/probes.md, "Needed recall"); absent: not computed. */
  needed?: NeededSet;
}

/** The ground truth in words: `8437 | 8437/tcp`, `all of: a, b`, `/regex/`, `(not in the session)`. */
export function describeExpected(expected: ProbeExpectation): string {
  if (expected.notInSession === true) return '(not in the session)';
  const parts: string[] = [];
  if (expected.anyOf !== undefined) parts.push(expected.anyOf.join(' | '));
  if (expected.allOf !== undefined) parts.push(`all of: ${expected.allOf.join(', ')}`);
  if (expected.regex !== undefined) parts.push(`/${expected.regex}/`);
  return parts.join('; ');
}

/**
 * Resolves each probe against the transcript: its evidence messages and texts, the step its
 * evidence becomes visible, its prepared ground truth and its ask points; with `needed` (the
 * transcript's needed uses), those too, and the last step each probe's fact is used at.
 */
export function prepareProbeSet(transcript: Transcript, probes: readonly Probe[], needed?: readonly NeededUse[]): ProbeSet {
  const indexById = new Map<string, number>();
  transcript.events.forEach((event, index) => {
    if (event.type === 'message') indexById.set(event.id, index);
  });
  let steps = 0;
  for (const event of transcript.events) if (event.type === 'message' && event.role === 'assistant') steps++;
  const measured = probes.map((probe): MeasuredProbe => {
    const indexes = probe.evidence.map((id) => indexById.get(id)).filter((i): i is number => i !== undefined);
    const evidence = indexes.map((i) => transcript.events[i] as MessageEvent);
    const visibleFrom = indexes.length === 0 ? undefined : Math.max(...indexes.map((i) => firstVisibleStep(transcript.events, i)));
    return {
      probe,
      expected: describeExpected(probe.expected),
      evidence,
      ...(visibleFrom === undefined ? {} : { visibleFrom }),
      prepared: prepareProbe(probe, evidence.map(messageText)),
      askSteps: new Set(probe.ask.flatMap((a) => (typeof a === 'object' ? [a.step] : []))),
      askAtEnd: probe.ask.includes('end'),
      askAfterCompaction: probe.ask.includes('after-compaction'),
      source: evidence.some((m) => m.role === 'tool') ? 'output' : 'agent',
      superseded: (probe.superseded ?? []).map(normaliseAnswer).filter((s) => s !== ''),
    };
  });
  if (needed === undefined) return { probes: measured, specifics: extractSpecifics(transcript), steps };
  const set = prepareNeededSet(transcript, needed);
  const lastSteps = lastNeededSteps(probes, set);
  const withNeeded = measured.map((mp, i) => {
    const last = lastSteps[i];
    return last === undefined ? mp : { ...mp, lastNeededStep: last };
  });
  return { probes: withNeeded, specifics: extractSpecifics(transcript), steps, needed: set };
}
