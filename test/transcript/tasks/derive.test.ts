import { describe, expect, it } from 'vitest';
import { deriveTasks } from '../../../src/transcript/tasks/derive.js';
import { importTranscript } from '../../../src/transcript/importers/index.js';
import type { MessageEvent, TaskEvent, TranscriptEvent } from '../../../src/transcript/types.js';

const user = (id: string, text: string): MessageEvent => ({ type: 'message', id, role: 'user', text });
const assistant = (id: string, text: string, calls: MessageEvent['toolCalls'] = undefined): MessageEvent => ({
  type: 'message',
  id,
  role: 'assistant',
  text,
  ...(calls ? { toolCalls: calls } : {}),
});
const tool = (id: string, callId: string): MessageEvent => ({ type: 'message', id, role: 'tool', text: 'ok', toolCallId: callId });
const todo = (id: string, items: [string, string][]) => ({ id, name: 'TodoWrite', args: { todos: items.map(([content, status]) => ({ content, status })) } });
const plan = (id: string, items: [string, string][]) => ({ id, name: 'update_plan', args: { plan: items.map(([step, status]) => ({ step, status })) } });

/** Each event as a short line: message ids, and task id:status. */
const shape = (events: TranscriptEvent[]) => events.map((e) => (e.type === 'task' ? `${e.id}:${e.status}` : e.type === 'message' ? e.id : e.type));

describe('deriveTasks', () => {
  it.each([
    ['TodoWrite', todo, 'todo-write'],
    ['update_plan', plan, 'update-plan'],
  ] as const)('reads %s calls: a task opens and completes after the result of the call that changed its status', (_, call, source) => {
    const events = deriveTasks([
      user('u1', 'build it'),
      assistant('a1', '', [
        call('c1', [
          ['Write code', 'in_progress'],
          ['Test', 'pending'],
        ]),
      ]),
      tool('t1', 'c1'),
      assistant('a2', 'Code written in src/x.ts'),
      assistant('a3', '', [
        call('c2', [
          ['Write code', 'completed'],
          ['Test', 'in_progress'],
        ]),
      ]),
      tool('t2', 'c2'),
    ]);
    expect(shape(events)).toEqual(['u1', 'a1', 't1', 'plan-1:in_progress', 'a2', 'a3', 't2', 'plan-1:completed', 'plan-2:in_progress']);
    const done = events[7] as TaskEvent;
    expect(done).toEqual({ type: 'task', id: 'plan-1', status: 'completed', title: 'Write code', source, resultSummary: 'Code written in src/x.ts' });
  });

  it('without plan calls, each user request opens a task the next one completes', () => {
    const events = deriveTasks([user('u1', 'first request'), assistant('a1', 'done first'), user('u2', 'second'), assistant('a2', 'x')]);
    expect(shape(events)).toEqual(['u1', 'turn-1:in_progress', 'a1', 'turn-1:completed', 'u2', 'turn-2:in_progress', 'a2']);
    expect(events[3]).toMatchObject({ source: 'user-turns', title: 'first request', resultSummary: 'done first' });
  });

  it('leaves a transcript that already has task events as it is', () => {
    const given: TranscriptEvent[] = [user('u1', 'a'), { type: 'task', id: 'T1', status: 'in_progress' }, user('u2', 'b')];
    expect(deriveTasks(given)).toEqual(given);
  });

  it('reads the 25 TodoWrite calls of the long real Claude Code session', async () => {
    const transcript = await importTranscript('fixtures/real/claude-code-long/vsla-0a725fb5.jsonl');
    const tasks = transcript.events.filter((e): e is TaskEvent => e.type === 'task');
    expect(tasks.every((t) => t.source === 'todo-write')).toBe(true);
    // 17 items went through in_progress; 23 completions (some items were ticked off without being started).
    expect(tasks.filter((t) => t.status === 'in_progress')).toHaveLength(17);
    expect(tasks.filter((t) => t.status === 'completed')).toHaveLength(23);
  });
});
