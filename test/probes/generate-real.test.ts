import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateProbes } from '../../src/probes/generate.js';
import { containsNormalised, normaliseAnswer } from '../../src/probes/grade.js';
import { listMessages, renderMessageText } from '../../src/probes/message-text.js';
import { probeSchema } from '../../src/transcript/probe-schema.js';
import { importTranscript } from '../../src/transcript/importers/index.js';
import { answerTokens, isAnswerToken, leakedTokens } from '../../src/probes/leak.js';
import { wordsOf } from '../../src/probes/findable.js';

/**
 * Probe generation on every real agent log of fixtures/real (see its PROVENANCE.md): no question
 * holds a token of its answer (leak.ts), every evidence message holds the answer and no later one
 * repeats it, and a log of 30 steps or more is asked at three steps or more, in three kinds or more.
 */

const ROOT = 'fixtures/real';
const files = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    readdirSync(join(ROOT, dir.name))
      .filter((name) => !name.endsWith('.expected.json'))
      .map((name) => `${dir.name}/${name}`),
  );

describe.each(files)('generateProbes on %s', async (file) => {
  // Lenient: one copied log has a line its redaction broke (PROVENANCE.md); probes need the rest.
  const transcript = await importTranscript(join(ROOT, file), { lenient: true });
  const messages = listMessages(transcript.events);
  const steps = messages.filter((m) => m.role === 'assistant').length;
  const probes = generateProbes(transcript);

  it.runIf(steps >= 30)('asks at three steps or more, and three kinds or more', () => {
    const askSteps = new Set(probes.flatMap((p) => p.ask.flatMap((a) => (typeof a === 'object' ? [a.step] : []))));
    expect(askSteps.size + 1).toBeGreaterThanOrEqual(3); // + the end
    expect(new Set(probes.map((p) => p.kind)).size).toBeGreaterThanOrEqual(3);
  });

  it('asks no question twice', () => {
    const questions = probes.map((p) => p.question);
    expect(questions.filter((q, i) => questions.indexOf(q) !== i)).toEqual([]);
  });

  it('writes valid probes whose evidence holds the answer, which the question does not give away', () => {
    for (const probe of probes) {
      expect(probeSchema.parse(probe)).toEqual(probe);
      const answer = normaliseAnswer(probe.expected.anyOf?.[0] ?? '');
      expect(containsNormalised(normaliseAnswer(probe.question), answer), probe.question).toBe(false);
      expect(leakedTokens(probe.question, probe.expected.anyOf?.[0] ?? ''), `${probe.question} → ${answer}`).toEqual([]);
      // The hint words ctxbench adds do not inflect an answer token either (`aliases` for `alias`).
      const hints = /\(context: ([^)]*)\)$/.exec(probe.question)?.[1] ?? '';
      const tokens = answerTokens(probe.expected.anyOf?.[0] ?? '');
      expect(
        wordsOf(hints).filter((word) => isAnswerToken(word, tokens)),
        `${probe.question} → ${answer}`,
      ).toEqual([]);
      for (const id of probe.evidence) {
        const message = messages.find((m) => m.id === id);
        expect(message, id).toBeDefined();
        expect(containsNormalised(normaliseAnswer(renderMessageText(message ?? messages[0]!, { thinking: true })), answer), `${probe.id} in ${id}`).toBe(true);
      }
      const last = messages.findIndex((m) => m.id === probe.evidence.at(-1));
      const holds = (m: (typeof messages)[number]) => containsNormalised(normaliseAnswer(renderMessageText(m, { thinking: true })), answer);
      const repeat = messages.findIndex((m, i) => i > last && holds(m));
      if (probe.ask.includes('end')) {
        // Every mention is evidence: a strategy that keeps any keeps the fact.
        expect(repeat, probe.id).toBe(-1);
      } else {
        // Asked once, before the end of the session repeats the answer: the repeat is not sent yet.
        const sentAt = messages.slice(0, repeat + 1).filter((m) => m.role === 'assistant').length;
        expect(probe.ask, probe.id).toEqual([{ step: expect.any(Number) }]);
        expect((probe.ask[0] as { step: number }).step, probe.id).toBeLessThan(repeat < 0 ? Infinity : sentAt);
      }
    }
  });
});
