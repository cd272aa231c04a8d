import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { sessionHeaderSchema, transcriptEventSchema } from '../../../src/transcript/schema.js';
import { countSteps, deriveGroups, deriveSteps, firstVisibleStep } from '../../../src/transcript/structure.js';
import { generateSession, syntheticOptionsSchema, type SyntheticOptionsInput } from '../../../src/transcript/synthetic/generate.js';
import type { MessageEvent, Probe, Transcript, TranscriptEvent } from '../../../src/transcript/types.js';
import { serializeTranscript } from '../../../src/transcript/write.js';

const messagesOf = (t: Transcript): MessageEvent[] => t.events.filter((e): e is MessageEvent => e.type === 'message');
const probesOf = (t: Transcript): Probe[] => t.events.flatMap((e) => (e.type === 'probe' ? [e.probe] : []));
/** Everything of a message a model could be shown: text, thinking and tool-call arguments. */
const visibleText = (m: MessageEvent): string => [m.text, m.thinking ?? '', JSON.stringify(m.toolCalls ?? [])].join('\n').toLowerCase();
const taskText = (e: TranscriptEvent): string => (e.type === 'task' ? [e.title, e.resultSummary, ...(e.criteria ?? [])].join('\n').toLowerCase() : '');

describe('generateSession', () => {
  it('gives byte-identical output for the same options', () => {
    const options = { steps: 30, seed: 42, timed: true };
    expect(serializeTranscript(generateSession(options))).toBe(serializeTranscript(generateSession(options)));
  });

  it('gives different output for a different seed', () => {
    const a = serializeTranscript(generateSession({ steps: 20, seed: 1 }));
    const b = serializeTranscript(generateSession({ steps: 20, seed: 2 }));
    expect(a).not.toBe(b);
  });

  it('produces events that pass the transcript schema, in both dialects', () => {
    for (const dialect of ['gemini', 'openai'] as const) {
      const session = generateSession({ dialect, timed: true, contextWindow: 1_000_000 });
      expect(sessionHeaderSchema.parse(session.header)).toEqual(session.header);
      for (const event of session.events) expect(transcriptEventSchema.parse(event)).toEqual(event);
    }
  });

  it('applies the defaults: 40 steps, 5 tasks, 6 facts, gemini', () => {
    const session = generateSession();
    expect(countSteps(session.events)).toBe(40);
    expect(session.events.filter((e) => e.type === 'task' && e.status === 'in_progress')).toHaveLength(5);
    expect(probesOf(session)).toHaveLength(6);
    expect(session.header).toMatchObject({ dialect: 'gemini', model: 'gemini-2.5-flash' });
    expect(session.header.contextWindow).toBeUndefined();
    expect(messagesOf(session).some((m) => m.at !== undefined)).toBe(false);
  });

  it.each([1, 7, 40, 333])('has exactly %i steps, one user request per task, each task opened and completed', (steps) => {
    const session = generateSession({ steps, seed: steps });
    expect(deriveSteps(session.events)).toHaveLength(steps);
    const tasks = Math.max(1, Math.floor(steps / 8));
    expect(messagesOf(session).filter((m) => m.role === 'user')).toHaveLength(tasks);
    expect(deriveGroups(session.events)).toHaveLength(tasks);
    const statuses = session.events.flatMap((e) => (e.type === 'task' ? [`${e.id}:${e.status}`] : []));
    expect(statuses).toHaveLength(tasks * 2);
    for (let i = 1; i <= tasks; i++) expect(statuses).toEqual(expect.arrayContaining([`task-${i}:in_progress`, `task-${i}:completed`]));
  });

  it('pairs every tool result with a call of the assistant message before it', () => {
    const session = generateSession({ steps: 60, seed: 5, dialect: 'openai' });
    const calls = new Set<string>();
    for (const message of messagesOf(session)) {
      for (const call of message.toolCalls ?? []) calls.add(call.id);
      if (message.role === 'tool') expect(calls.has(message.toolCallId ?? '')).toBe(true);
    }
    expect(calls.size).toBeGreaterThan(20);
  });

  it('gives Gemini tool-calling turns a thought signature and every message its dialect', () => {
    const gemini = messagesOf(generateSession({ dialect: 'gemini', seed: 3 }));
    for (const m of gemini) {
      expect(m.dialect).toBe('gemini');
      expect(m.thoughtSignature !== undefined).toBe(m.role === 'assistant' && m.toolCalls !== undefined);
    }
    const openai = generateSession({ dialect: 'openai', seed: 3 });
    expect(openai.header.model).toBe('gpt-4.1');
    expect(messagesOf(openai).every((m) => m.thoughtSignature === undefined && m.dialect === 'openai')).toBe(true);
  });

  it('records times from 2026-01-01T00:00:00Z with gaps of 5–40 s when timed', () => {
    const session = generateSession({ timed: true, seed: 9 });
    const times = messagesOf(session).map((m) => Date.parse(m.at ?? ''));
    expect(new Date(times[0] ?? 0).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    for (let i = 1; i < times.length; i++) {
      const gap = (times[i] ?? 0) - (times[i - 1] ?? 0);
      expect(gap).toBeGreaterThanOrEqual(5000);
      expect(gap).toBeLessThanOrEqual(40000);
    }
  });

  it('sizes tool results around toolOutputTokens × 4 characters', () => {
    for (const toolOutputTokens of [300, 1500, 4000]) {
      const results = messagesOf(generateSession({ steps: 80, toolOutputTokens, seed: 11 })).filter((m) => m.role === 'tool');
      const mean = results.reduce((sum, m) => sum + m.text.length, 0) / results.length;
      expect(mean).toBeGreaterThan(toolOutputTokens * 4 * 0.6);
      expect(mean).toBeLessThan(toolOutputTokens * 4 * 1.4);
    }
  });

  it('records usage on assistant messages, output at about 4 characters a token', () => {
    for (const m of messagesOf(generateSession({ seed: 4 })).filter((m) => m.role === 'assistant')) {
      const chars = m.text.length + (m.thinking?.length ?? 0) + JSON.stringify(m.toolCalls ?? []).length;
      expect(m.usage?.output).toBeGreaterThanOrEqual(Math.floor(chars / 4));
      expect(m.usage?.input).toBeGreaterThan(0);
    }
  });

  it('varies its prose: most assistant replies and thoughts are not repeats', () => {
    const assistants = messagesOf(generateSession({ steps: 200, seed: 8 })).filter((m) => m.role === 'assistant');
    expect(new Set(assistants.map((m) => m.thinking)).size).toBeGreaterThan(assistants.length * 0.3);
    const sayings = new Set(assistants.map((m) => m.text.replace(/`[^`]*`/g, '`x`')));
    expect(sayings.size).toBeGreaterThan(15);
    const projects = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => generateSession({ steps: 2, seed }).header.title?.split(' ')[2]));
    expect(projects.size).toBeGreaterThan(3);
  });

  it('rejects invalid options with a UsageError naming the option', () => {
    expect(() => generateSession({ steps: 0 })).toThrow(UsageError);
    expect(() => generateSession({ steps: 4, tasks: 5 })).toThrow(/tasks/);
    expect(() => generateSession({ dialect: 'anthropic' as 'gemini' })).toThrow(/dialect/);
    expect(() => generateSession({ seed: 1.5 })).toThrow(/seed/);
    expect(() => generateSession({ stepz: 3 } as SyntheticOptionsInput)).toThrow(UsageError);
  });

  it('exports an options schema whose defaults are the documented ones', () => {
    expect(syntheticOptionsSchema.parse({})).toEqual({
      steps: 40,
      seed: 1,
      dialect: 'gemini',
      toolOutputTokens: 1500,
      timed: false,
      facts: 6,
      factPosition: 'uniform',
    });
  });
});

describe('planted facts and their probes', () => {
  const configurations: SyntheticOptionsInput[] = [
    {},
    { dialect: 'openai', seed: 2 },
    { steps: 8, facts: 6, seed: 3 },
    { steps: 3, facts: 10, seed: 4 },
    { steps: 120, facts: 25, seed: 5, toolOutputTokens: 400 },
    ...Array.from({ length: 24 }, (_, i) => ({ steps: 16 + i * 3, facts: 10, seed: 100 + i, toolOutputTokens: 200 })),
  ];

  it.each(configurations)('hold for %o', (options) => {
    const session = generateSession(options);
    checkProbes(session, syntheticOptionsSchema.parse(options).steps);
  });

  it('plants one probe per fact when there are enough slots, of every kind', () => {
    const probes = probesOf(generateSession({ steps: 80, facts: 10, seed: 6 }));
    expect(probes).toHaveLength(10);
    expect(new Set(probes.map((p) => p.kind))).toEqual(new Set(['recall', 'artifact', 'continuation', 'decision']));
    expect(new Set(probes.map((p) => p.question)).size).toBe(10);
  });

  it('plants fewer facts when a short session has too few slots', () => {
    const probes = probesOf(generateSession({ steps: 1, facts: 10, seed: 1 }));
    expect(probes.length).toBeGreaterThan(0);
    expect(probes.length).toBeLessThan(10);
  });

  it('plants none when asked for none', () => {
    expect(probesOf(generateSession({ facts: 0 }))).toEqual([]);
  });
});

/**
 * The contract of a planted fact: its answer is verbatim in the text of every evidence message and
 * nowhere else (not in other messages, thinking, tool arguments or task summaries), and the probe
 * points at existing messages and asks no earlier than the evidence is visible.
 */
function checkProbes(session: Transcript, steps: number): void {
  const messages = messagesOf(session);
  const byId = new Map(messages.map((m) => [m.id, m]));
  const probes = probesOf(session);
  for (const probe of probes) {
    const answer = probe.expected.anyOf?.[0] ?? '';
    expect(answer).not.toBe('');
    expect(probe.question.toLowerCase()).not.toContain(answer.toLowerCase());
    expect(probe.evidence.length).toBeGreaterThan(0);
    for (const id of probe.evidence) expect(byId.get(id)?.text).toContain(answer);
    for (const message of messages) {
      if (!probe.evidence.includes(message.id)) expect(visibleText(message)).not.toContain(answer.toLowerCase());
    }
    for (const event of session.events) expect(taskText(event)).not.toContain(answer.toLowerCase());
    expect(probe.ask).toContain('end');
    const lastEvidence = Math.max(...probe.evidence.map((id) => session.events.findIndex((e) => e.type === 'message' && e.id === id)));
    for (const ask of probe.ask) {
      if (typeof ask === 'object') {
        expect(ask.step).toBeGreaterThanOrEqual(firstVisibleStep(session.events, lastEvidence));
        expect(ask.step).toBeLessThan(steps);
      }
    }
  }
  expect(new Set(probes.map((p) => p.id)).size).toBe(probes.length);
}
