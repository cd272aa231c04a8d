import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../../src/probes/grade.js';
import { readProbe } from '../../../src/simulator/reader.js';
import { generateSession, type SyntheticOptionsInput } from '../../../src/transcript/synthetic/generate.js';
import { ABSENT_QUESTIONS } from '../../../src/transcript/synthetic/hard.js';
import { serializeTranscript } from '../../../src/transcript/write.js';
import type { MessageEvent, Probe, Transcript } from '../../../src/transcript/types.js';

/**
 * Harder synthetic probes (`hard: true`): values updated later (the probe expects the latest),
 * look-alike distractors, a fact only in early tool output, and "not in the session" questions.
 */

const messagesOf = (t: Transcript): MessageEvent[] => t.events.filter((e): e is MessageEvent => e.type === 'message');
const probesOf = (t: Transcript): Probe[] => t.events.flatMap((e) => (e.type === 'probe' ? [e.probe] : []));
const visible = (m: MessageEvent): string => [m.text, m.thinking ?? '', JSON.stringify(m.toolCalls ?? [])].join('\n').toLowerCase();

const configurations: SyntheticOptionsInput[] = Array.from({ length: 12 }, (_, i) => ({
  steps: 30 + i * 7,
  seed: 200 + i,
  facts: 8 + i,
  toolOutputTokens: 250 + i * 40,
  dialect: i % 2 === 0 ? 'gemini' : 'openai',
  hard: true,
}));

/** Each configuration's session, generated once for the whole file (generation is pure: tested below). */
const sessions = new Map<SyntheticOptionsInput, Transcript>();
const sessionOf = (options: SyntheticOptionsInput): Transcript => {
  let session = sessions.get(options);
  if (session === undefined) {
    session = generateSession(options);
    sessions.set(options, session);
  }
  return session;
};

describe('hard synthetic probes', () => {
  it('are deterministic, and `hard: false` changes nothing', () => {
    const options = { steps: 40, seed: 3, facts: 10, hard: true };
    expect(serializeTranscript(generateSession(options))).toBe(serializeTranscript(generateSession(options)));
    expect(generateSession({ steps: 40, seed: 3, facts: 10, hard: false }).events).toEqual(generateSession({ steps: 40, seed: 3, facts: 10 }).events);
  });

  it.each(configurations)('keep each answer in its evidence and nowhere else, for %o', (options) => {
    const session = sessionOf(options);
    const messages = messagesOf(session);
    for (const probe of probesOf(session)) {
      if (probe.expected.notInSession === true) continue;
      const answer = (probe.expected.anyOf?.[0] ?? '').toLowerCase();
      expect(probe.question.toLowerCase()).not.toContain(answer);
      for (const m of messages) expect(visible(m).includes(answer), `${probe.id} in ${m.id}`).toBe(probe.evidence.includes(m.id));
    }
  });

  it.each(configurations)('are answered by the lexical reader from the whole session, for %o', (options) => {
    const session = sessionOf(options);
    const messages = messagesOf(session);
    for (const probe of probesOf(session)) {
      const read = readProbe([...messages, { type: 'message', id: 'q', role: 'user', text: probe.question }]);
      expect(gradeAnswer(probe.expected, read.answer).correct, `${probe.question} -> ${read.answer}`).toBe(true);
    }
  });

  it('expect the latest value of an updated fact; the old one stays behind, in the same words', () => {
    let updates = 0;
    for (const options of configurations) {
      const session = sessionOf(options);
      const messages = messagesOf(session);
      for (const probe of probesOf(session)) {
        const evidence = messages.find((m) => m.id === probe.evidence[0]);
        const edit = evidence?.toolCalls?.find((c) => c.name === 'edit_file' && typeof c.args.old_string === 'string');
        if (!/^(Moving|Rotating)|Revisited the decision/.test(evidence?.text ?? '')) continue;
        updates += 1;
        if (edit === undefined) continue;
        // The old line is in an earlier tool result; the new value is only in the change.
        const old = String(edit.args.old_string);
        const at = messages.findIndex((m) => m.id === evidence?.id);
        expect(
          messages.slice(0, at).some((m) => m.role === 'tool' && m.text.includes(old)),
          probe.id,
        ).toBe(true);
        expect(String(edit.args.new_string)).toContain(probe.expected.anyOf?.[0]);
      }
    }
    expect(updates).toBeGreaterThan(configurations.length);
  });

  it('plant look-alike values beside a fact', () => {
    const session = generateSession({ steps: 40, seed: 5, facts: 10, hard: true });
    const config = messagesOf(session).find((m) => m.role === 'tool' && / # [\w-]+ listener/.test(m.text));
    expect(config?.text.match(/port: \d+ {2}# [\w-]+ listener/g)?.length).toBeGreaterThan(1);
  });

  it('ask about a fact only early tool output holds (the first two results: the port is read first)', () => {
    for (const options of configurations) {
      const session = sessionOf(options);
      const pinned = probesOf(session).find((p) => p.id.endsWith('pinned-dependency'));
      const firstTools = messagesOf(session)
        .filter((m) => m.role === 'tool')
        .slice(0, 2)
        .map((m) => m.id);
      expect(pinned?.evidence).toHaveLength(1);
      expect(firstTools).toContain(pinned?.evidence[0]);
    }
  });

  it('ask about things the session never mentions, whose answer is to say so', () => {
    for (const options of configurations) {
      const session = sessionOf(options);
      const absent = probesOf(session).filter((p) => p.expected.notInSession === true);
      expect(absent.length).toBeGreaterThan(0);
      const text = messagesOf(session).map(visible).join('\n');
      for (const probe of absent) {
        expect(probe).toMatchObject({ evidence: [], expected: { notInSession: true }, ask: ['end'] });
        const words = ABSENT_QUESTIONS.find((q) => q.question === probe.question)?.words ?? [];
        expect(words.length, probe.question).toBeGreaterThan(0);
        for (const word of words) expect(new RegExp(`\\b${word}`).test(text), `${word} in the session`).toBe(false);
      }
    }
  });
});
