import { describe, expect, it } from 'vitest';
import { controlEventSchema, eventSchemas, isEventType, messageEventSchema, sessionHeaderSchema, transcriptEventSchema } from '../../src/transcript/schema.js';
import { generateSession } from '../../src/transcript/synthetic/generate.js';

/** The dotted path of the first issue, or `ok`. */
function firstIssue(schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } }, value: unknown): string {
  const result = schema.safeParse(value);
  return result.success ? 'ok' : (result.error?.issues[0]?.path.map(String).join('.') ?? '');
}

describe('transcript schemas', () => {
  it('accept every event the generator writes', () => {
    const session = generateSession({ steps: 50, facts: 10, timed: true, seed: 12 });
    expect(firstIssue(sessionHeaderSchema, session.header)).toBe('ok');
    for (const event of session.events) expect(firstIssue(transcriptEventSchema, event)).toBe('ok');
  });

  it.each([
    ['a tool result without toolCallId', { type: 'message', id: 'r', role: 'tool', text: 'x' }, 'toolCallId'],
    ['a tool result with toolCallId', { type: 'message', id: 'r', role: 'tool', text: 'x', toolCallId: 'c' }, 'ok'],
    ['an unknown role', { type: 'message', id: 'm', role: 'bot', text: 'x' }, 'role'],
    ['an extra key (strict)', { type: 'message', id: 'm', role: 'user', text: 'x', content: 'x' }, ''],
    ['a tool call without args', { type: 'message', id: 'm', role: 'assistant', text: '', toolCalls: [{ id: 'c', name: 'n' }] }, 'toolCalls.0.args'],
    ['negative usage', { type: 'message', id: 'm', role: 'assistant', text: '', usage: { output: -1 } }, 'usage.output'],
    ['a time that is not ISO 8601', { type: 'message', id: 'm', role: 'user', text: 'x', at: 'yesterday' }, 'at'],
    ['a time with an offset', { type: 'message', id: 'm', role: 'user', text: 'x', at: '2026-01-01T10:00:00.123+02:00' }, 'ok'],
    ['an empty id', { type: 'message', id: '', role: 'user', text: 'x' }, 'id'],
  ])('message: %s', (_, value, path) => {
    expect(firstIssue(messageEventSchema, value)).toBe(path);
  });

  it.each([
    [{ type: 'control', action: 'drop-group' }, 'group'],
    [{ type: 'control', action: 'drop-group', group: 2 }, 'ok'],
    [{ type: 'control', action: 'drop-group', group: -1 }, 'group'],
    [{ type: 'control', action: 'switch-dialect' }, 'dialect'],
    [{ type: 'control', action: 'switch-dialect', dialect: 'anthropic' }, 'ok'],
    [{ type: 'control', action: 'undo' }, 'ok'],
    [{ type: 'control', action: 'compact', at: '2026-01-01T00:00:00Z' }, 'ok'],
    [{ type: 'control', action: 'rewind' }, 'action'],
  ])('control %o → %s', (value, path) => {
    expect(firstIssue(controlEventSchema, value)).toBe(path);
  });

  it('validates probes with the shared probe schema', () => {
    const probe = { id: 'p', kind: 'decision', question: 'why?', expected: { allOf: ['a', 'b'] }, evidence: ['m1'], ask: [{ step: 3 }, 'after-compaction'] };
    expect(firstIssue(transcriptEventSchema, { type: 'probe', probe })).toBe('ok');
    expect(firstIssue(transcriptEventSchema, { type: 'probe', probe: { ...probe, expected: {} } })).toBe('probe.expected');
  });

  it('validates the header, task and compaction events', () => {
    expect(firstIssue(sessionHeaderSchema, { type: 'session', id: 's', dialect: 'gemini', contextWindow: 0 })).toBe('contextWindow');
    expect(firstIssue(transcriptEventSchema, { type: 'task', id: 't', status: 'done' })).toBe('status');
    expect(firstIssue(transcriptEventSchema, { type: 'task', id: 't', status: 'failed', criteria: ['x'] })).toBe('ok');
    expect(firstIssue(transcriptEventSchema, { type: 'compaction', id: 'c', tokensBefore: 10, tokensAfter: 2 })).toBe('ok');
  });

  it('knows the event types by name, and the header is not one of them', () => {
    expect(Object.keys(eventSchemas).sort()).toEqual(['compaction', 'control', 'message', 'probe', 'task']);
    expect(isEventType('message')).toBe(true);
    expect(isEventType('session')).toBe(false);
    expect(isEventType('toString')).toBe(false);
    expect(isEventType(3)).toBe(false);
  });
});
