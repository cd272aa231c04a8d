import type { Transcript } from '../../transcript/types.js';

/**
 * The transcript as it stood after the first `share` of its steps (assistant messages), the
 * events after them left out: a session cut short, on which the extraction rules are checked as
 * on a log nobody looked at (docs/probes.md, "Needed uses per log, and K").
 */
export function firstShareOfSteps(transcript: Transcript, share: number): Transcript {
  if (share >= 1) return transcript;
  const steps = transcript.events.filter((e) => e.type === 'message' && e.role === 'assistant').length;
  const keep = Math.floor(steps * share);
  let seen = 0;
  const cut = transcript.events.findIndex((e) => e.type === 'message' && e.role === 'assistant' && ++seen > keep);
  return cut < 0 ? transcript : { ...transcript, events: transcript.events.slice(0, cut) };
}
