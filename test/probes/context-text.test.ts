import { describe, expect, it } from 'vitest';
import { MessageRetention, holdsNormalised, isRetainedInMessages, messageText, prepareMessages, retainedInMessages } from '../../src/probes/context-text.js';
import { containsNormalised } from '../../src/probes/grade.js';
import { createRandom } from '../../src/random.js';
import { renderMessageText } from '../../src/probes/message-text.js';
import { isPreparedRetained, prepareContext, prepareProbe } from '../../src/probes/retention.js';
import type { MessageEvent, Probe } from '../../src/transcript/types.js';
import { diffContexts } from '../../src/transcript/context-diff.js';

const messages: MessageEvent[] = [
  { type: 'message', id: 'm1', role: 'user', text: 'Where does the server listen?' },
  {
    type: 'message',
    id: 'm2',
    role: 'assistant',
    text: '',
    thinking: 'secret port 1111',
    toolCalls: [{ id: 'c', name: 'read_file', args: { path: 'src/Config.ts' } }],
  },
  { type: 'message', id: 'm3', role: 'tool', text: 'export const config = {\n  port: 8437,\n};', toolCallId: 'c' },
];

describe('prepareMessages', () => {
  it('prepares the same context as retention.ts from rendered texts (no thinking)', () => {
    const prepared = prepareMessages(messages);
    const reference = prepareContext(messages.map((m) => renderMessageText(m)));
    expect(prepared.raw).toBe(reference.raw);
    expect(prepared.normalised).toBe(reference.normalised);
    expect(prepared.raw).not.toContain('1111');
  });

  it('gives the same retention verdicts', () => {
    const probe: Probe = { id: 'p', kind: 'artifact', question: 'q', expected: { anyOf: ['SRC/config.ts'] }, evidence: ['m2'], ask: ['end'] };
    const prepared = prepareProbe(probe, []);
    expect(isPreparedRetained(prepared, prepareMessages(messages))).toBe(true);
    expect(isPreparedRetained(prepared, prepareMessages(messages.slice(0, 1)))).toBe(false);
  });

  it('finds a normalised text in the messages as in their normalised join, a separator in it included', () => {
    const needles = ['src/config.ts', 'port: 8437', '8437', '843', 'server listen', 'listen\u0000read_file', 'export const', 'absent', ''];
    for (let n = 0; n <= messages.length; n++) {
      const context = messages.slice(0, n);
      const prepared = prepareMessages(context);
      for (const needle of needles)
        expect(holdsNormalised(context, prepared, needle), `${needle} in ${n}`).toBe(containsNormalised(prepared.normalised, needle));
    }
    // Found across two messages only where the needle holds the separator, as in the join.
    expect(holdsNormalised(messages, prepareMessages(messages), 'listen\u0000read_file')).toBe(true);
  });

  it('renders each message once and reuses it across steps', () => {
    expect(messageText(messages[2] as MessageEvent)).toBe(messageText(messages[2] as MessageEvent));
    expect(messageText(messages[1] as MessageEvent)).toBe('read_file\npath: src/Config.ts');
  });
});

describe('isRetainedInMessages', () => {
  const probe = (expected: Probe['expected']): Probe => ({ id: 'p', kind: 'recall', question: 'q?', expected, evidence: [], ask: ['end'] });
  const cases: [string, Probe['expected'], string[]][] = [
    ['evidence in one message', { anyOf: ['nothing like it'] }, ['export const config = {\n  port: 8437,\n};']],
    ['anyOf', { anyOf: ['src/config.ts'] }, []],
    ['allOf split over two messages', { allOf: ['server listen', 'port: 8437'] }, []],
    ['a number inside a longer one is not found', { anyOf: ['843'] }, []],
    ['regex across messages', { regex: 'listen\\?[\\s\\S]*8437' }, []],
    ['absent', { anyOf: ['9999'] }, []],
  ];

  it.each(cases)('gives what isPreparedRetained gives on the joined context: %s', (_name, expected, evidence) => {
    const prepared = prepareProbe(probe(expected), evidence);
    for (let n = 0; n <= messages.length; n++) {
      const context = messages.slice(0, n);
      const joined = prepareContext(context.map((m) => renderMessageText(m)));
      expect(isRetainedInMessages(prepared, context, prepareMessages(context)), `${n} messages`).toBe(isPreparedRetained(prepared, joined));
    }
  });

  it('finds evidence and truth per message: the figures of a whole context, step after step', () => {
    const prepared = prepareProbe(probe({ allOf: ['server listen', 'port: 8437'] }), []);
    expect(messages.map((_, i) => isRetainedInMessages(prepared, messages.slice(0, i + 1), prepareMessages(messages.slice(0, i + 1))))).toEqual([
      false,
      false,
      true,
    ]);
    expect(isRetainedInMessages(prepared, messages.slice(1), prepareMessages(messages.slice(1)))).toBe(false);
  });
});

describe('retainedInMessages', () => {
  const probe = (expected: Probe['expected']): Probe => ({ id: 'p', kind: 'recall', question: 'q?', expected, evidence: [], ask: ['end'] });
  // One list for every step, as the probe observer keeps it: the findings memo is per list.
  const list = [
    prepareProbe(probe({ anyOf: ['nothing like it'] }), ['export const config = {\n  port: 8437,\n};']),
    prepareProbe(probe({ anyOf: ['src/config.ts'] }), []),
    prepareProbe(probe({ allOf: ['server listen', 'port: 8437'] }), []),
    prepareProbe(probe({ anyOf: ['843'] }), []),
    prepareProbe(probe({ regex: 'listen\\?[\\s\\S]*8437' }), []),
    prepareProbe(probe({ notInSession: true }), []),
    prepareProbe(probe({ anyOf: ['a\u0000b'] }), []),
  ];
  // A copy with the same text is a new object: its findings come from the text memo.
  const copy: MessageEvent = { ...(messages[2] as MessageEvent) };
  const contexts: MessageEvent[][] = [
    [],
    messages,
    messages.slice(1),
    [messages[2] as MessageEvent, messages[0] as MessageEvent],
    [copy],
    [messages[0] as MessageEvent, copy],
  ];

  it('gives every probe of a list what isPreparedRetained gives on the joined context, step after step', () => {
    for (const context of contexts) {
      const joined = prepareContext(context.map((m) => renderMessageText(m)));
      const verdicts = retainedInMessages(list, context, prepareMessages(context), () => true);
      expect(verdicts).toEqual(list.map((p) => isPreparedRetained(p, joined)));
    }
    expect(retainedInMessages(list, messages, prepareMessages(messages), () => true)).toEqual([true, true, true, false, true, null, false]);
  });

  it('answers null for the probes not asked', () => {
    expect(retainedInMessages(list, messages, prepareMessages(messages), (i) => i === 2)).toEqual([null, null, true, null, null, null, null]);
  });
});

describe('MessageRetention', () => {
  const probe = (expected: Probe['expected']): Probe => ({ id: 'p', kind: 'recall', question: 'q?', expected, evidence: [], ask: ['end'] });
  const facts = ['port: 8437', 'retry budget 3', 'src/config.ts', 'server listen', 'token ttl 900', 'cache size 64'];
  const list = [
    ...facts.map((fact) => prepareProbe(probe({ anyOf: ['nothing like it'] }), [`the ${fact} is set here`])),
    ...facts.map((fact) => prepareProbe(probe({ anyOf: [fact.toUpperCase()] }), [])),
    prepareProbe(probe({ allOf: ['server listen', 'port: 8437'] }), []),
    prepareProbe(probe({ allOf: ['token ttl 900', 'cache size 64', 'retry budget 3'] }), []),
    prepareProbe(probe({ regex: 'listen[\\s\\S]*8437' }), []),
    prepareProbe(probe({ anyOf: ['a\u0000b'] }), []),
    prepareProbe(probe({ notInSession: true }), []),
  ];
  const pool: MessageEvent[] = Array.from({ length: 24 }, (_, i) => ({
    type: 'message',
    id: `m${i}`,
    role: i % 3 === 0 ? 'tool' : 'assistant',
    text: [facts[i % facts.length], i % 4 === 0 ? `the ${facts[(i * 5) % facts.length] ?? ''} is set here` : 'nothing', `line ${i}`].join('\n'),
  }));

  it('gives what a context counted from scratch gives, step after step, whatever the strategy changes', () => {
    const random = createRandom(15);
    for (let run = 0; run < 20; run++) {
      const retention = new MessageRetention(list);
      // Like a strategy, sometimes the same array with messages appended, sometimes a new one.
      let context: MessageEvent[] = [];
      let sent: readonly MessageEvent[] = [];
      for (let step = 0; step < 40; step++) {
        const edit = random.int(0, 5);
        if (edit <= 1) context.push(random.pick(pool));
        else if (edit === 2) context = context.slice(random.int(0, Math.max(0, context.length - 1)));
        else if (edit === 3 && context.length > 0) context = context.map((m, i) => (i === random.int(0, context.length - 1) ? { ...random.pick(pool) } : m));
        else if (edit === 4) context = [...context].reverse();
        else context = [{ ...random.pick(pool), id: 'summary', text: random.pick(facts) }, ...context.slice(random.int(0, context.length))];
        const asked = random.int(0, 2);
        const isAsked = (i: number) => asked === 0 || i % asked === 0;
        const joined = prepareContext(context.map((m) => renderMessageText(m)));
        const expected = list.map((p, i) => (isAsked(i) ? isPreparedRetained(p, joined) : null));
        // The step's diff from the context sent before, as the step loop hands it; one step in three is
        // not measured (a crash), and the next diff is then not from what retention counted.
        const diff = diffContexts(sent, context);
        sent = diff.after;
        if (step % 3 !== 2) expect(retention.retained(diff, prepareMessages(context), isAsked), `run ${run} step ${step}`).toEqual(expected);
        expect(retainedInMessages(list, context, prepareMessages(context), isAsked)).toEqual(expected);
      }
    }
  });
});
