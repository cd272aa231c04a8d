import { describe, expect, it } from 'vitest';
import { describeExpected, prepareProbeSet } from '../../src/probes/probe-set.js';
import type { Probe, Transcript } from '../../src/transcript/types.js';

const transcript: Transcript = {
  header: { type: 'session', id: 's', dialect: 'openai' },
  events: [
    { type: 'message', id: 'u1', role: 'user', text: 'Fix it.' },
    { type: 'message', id: 'a1', role: 'assistant', text: 'Reading.', toolCalls: [{ id: 'c', name: 'read_file', args: { path: 'src/a.ts' } }] },
    { type: 'message', id: 't1', role: 'tool', text: 'const port = 8437; // the server listens here', toolCallId: 'c' },
    { type: 'message', id: 'a2', role: 'assistant', text: 'Done.' },
    { type: 'message', id: 'a3', role: 'assistant', text: 'Really done.' },
  ],
  file: '<test>',
  skipped: [],
  unknown: {},
};

const probe = (id: string, evidence: string[], extra: Partial<Probe> = {}): Probe => ({
  id,
  kind: 'recall',
  question: 'Which port?',
  expected: { anyOf: ['8437'] },
  evidence,
  ask: ['end'],
  ...extra,
});

describe('prepareProbeSet', () => {
  const set = prepareProbeSet(transcript, [
    probe('tool', ['t1'], { ask: ['end', { step: 2 }, 'after-compaction'] }),
    probe('call', ['a1']),
    probe('both', ['a1', 't1']),
    probe('nowhere', ['x9']),
    probe('absent', [], { expected: { notInSession: true } }),
  ]);
  const byId = new Map(set.probes.map((p) => [p.probe.id, p]));

  it('finds the step from which the evidence is visible (after the assistant message before it)', () => {
    expect(set.steps).toBe(3);
    expect(byId.get('tool')?.visibleFrom).toBe(1);
    expect(byId.get('call')?.visibleFrom).toBe(1);
    expect(byId.get('both')?.visibleFrom).toBe(1);
  });

  it('leaves probes without evidence in the transcript without a step (no retention curve)', () => {
    expect(byId.get('nowhere')?.visibleFrom).toBeUndefined();
    expect(byId.get('nowhere')?.evidence).toEqual([]);
    expect(byId.get('absent')?.prepared.measurable).toBe(false);
  });

  it('reads the ask points', () => {
    expect(byId.get('tool')).toMatchObject({ askAtEnd: true, askAfterCompaction: true });
    expect([...(byId.get('tool')?.askSteps ?? [])]).toEqual([2]);
    expect(byId.get('call')).toMatchObject({ askAtEnd: true, askAfterCompaction: false });
  });

  it('collects the verbatim specifics of the transcript once', () => {
    expect(set.specifics.paths).toContain('src/a.ts');
    expect(set.specifics.numbers).toContain('8437');
  });
});

describe('describeExpected', () => {
  it.each([
    [{ anyOf: ['8437', '8437/tcp'] }, '8437 | 8437/tcp'],
    [{ allOf: ['pg-mem', 'CI'] }, 'all of: pg-mem, CI'],
    [{ anyOf: ['a'], regex: 'b+' }, 'a; /b+/'],
    [{ notInSession: true }, '(not in the session)'],
  ])('%o → %s', (expected, text) => {
    expect(describeExpected(expected)).toBe(text);
  });
});
