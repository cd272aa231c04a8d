import { beforeAll, describe, expect, it } from 'vitest';
import { replayFiles, type MeasuredTranscript } from '../../src/fidelity/measure.js';
import { chargedForMessages } from '../../src/fidelity/fit.js';
import { DEFAULT_CALIBRATION } from '../../src/tokens/calibration.js';

/**
 * The fit counts what the replay counts: per call, what `fidelity --fit` charges for the messages
 * of the context under a calibration is what the calibrated replay charges for them. The banner
 * log holds 10,671 terminal escape sequences, weighed 3.5 each by the replay (tokens/escapes.ts):
 * counted raw and scaled, as the fit counted them before, its 70th call read 127,777 tokens where
 * the replay charges 122,852 (o200k_base ~5 a sequence × 1.185, against 3.5).
 */
const BANNER = 'fixtures/real/claude-code-compactions/swordintel-e95a823a.jsonl';

let measured: MeasuredTranscript;

beforeAll(async () => {
  [measured] = (await replayFiles([BANNER])) as [MeasuredTranscript];
}, 300_000);

describe('chargedForMessages', () => {
  it("charges every call's messages as the calibrated replay does, escape sequences weighed (within rounding: a token a call)", () => {
    const claude = DEFAULT_CALIBRATION.claude;
    if (claude === undefined) throw new Error('no claude calibration');
    const charged = chargedForMessages(measured, claude);
    const compaction = measured.transcript.events.findIndex((e) => e.type === 'compaction' && e.summary !== undefined);
    const before = new Set(measured.transcript.events.slice(0, compaction).flatMap((e) => (e.type === 'message' ? [e.id] : [])));
    // Before the log's first compaction: after it the replay counts the re-attached texts it kept among the messages, the fit in its hidden estimate.
    const steps = measured.replay.steps.filter((s) => before.has(s.messageId) && charged.has(s.messageId));
    expect(steps.length).toBeGreaterThan(60);
    let largest = 0;
    for (const step of steps) {
      const replayed = step.promptTokens - (step.hiddenTokens ?? 0);
      largest = Math.max(largest, Math.abs((charged.get(step.messageId) as number) - replayed) / Math.max(1, step.step));
    }
    expect(largest).toBeLessThanOrEqual(1);
  });
});
