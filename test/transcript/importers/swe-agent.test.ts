import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sweAgent } from '../../../src/transcript/importers/swe-agent.js';
import { expectCanonical, messagesOf, writeTemp } from './helpers.js';
import { sweAgentSample } from './samples.js';

describe('swe-agent importer', () => {
  it('maps the chat-completions history and keeps the run totals in the title', async () => {
    const transcript = await sweAgent.import(writeTemp('run.traj', sweAgentSample), {});
    expect(messagesOf(transcript).map((m) => [m.id, m.role, m.text])).toEqual([
      ['history-0', 'system', 'You are a programmer.'],
      ['history-1', 'user', 'Fix the bug.'],
      ['history-2', 'assistant', 'Look first.'],
      ['history-3', 'tool', 'a.py'],
    ]);
    expect(messagesOf(transcript)[2]).toMatchObject({ toolCalls: [{ id: 'call_1', name: 'bash', args: { command: 'ls' } }], model: 'gpt-4o' });
    expect(messagesOf(transcript)[3]).toMatchObject({ toolCallId: 'call_1', toolName: 'bash' });
    expect(transcript.header).toMatchObject({ id: 'demo__demo-1', model: 'gpt-4o', dialect: 'openai' });
    expect(transcript.header.title).toBe(
      'SWE-agent run: exit_status submitted; model_stats instance_cost=0.5, tokens_sent=1000, tokens_received=50, api_calls=1',
    );
    expectCanonical(transcript);
  });

  it('gives a reused call id a unique one, and pairs each result with the latest call', async () => {
    const history = [
      { role: 'assistant', content: 'a', tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'bash', arguments: '{}' } }] },
      { role: 'tool', content: 'first', tool_call_ids: ['call_x'] },
      { role: 'assistant', content: 'b', tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'bash', arguments: '{}' } }] },
      { role: 'tool', content: 'second', tool_call_ids: ['call_x'] },
    ];
    const transcript = await sweAgent.import(writeTemp('run.traj', JSON.stringify({ history })), {});
    expect(messagesOf(transcript).map((m) => m.toolCalls?.[0]?.id ?? m.toolCallId)).toEqual(['call_x', 'call_x', 'call_x#2', 'call_x#2']);
    expectCanonical(transcript);
  });
});

describe('swe-agent importer on thought/action trajectories (SWE-agent 0.x)', () => {
  const FILE = 'fixtures/transcript/import/swe-agent-0.x-thought-action.traj';

  it('imports each action as a call and the next observation as its result, sent as the text the model saw', async () => {
    const transcript = await sweAgent.import(FILE, {});
    const messages = messagesOf(transcript);
    const steps = messages.filter((m) => m.role === 'assistant');
    expect(steps.map((m) => m.toolCalls?.map((c) => c.name))).toEqual([
      ['create'],
      ['edit'],
      ['python'],
      ['find_file'],
      ['open'],
      ['edit'],
      ['python'],
      ['rm'],
      ['submit'],
    ]);
    expect(steps[1]?.toolCalls?.[0]?.args.command).toMatch(/^edit 1:1\nfrom marshmallow\.fields import TimeDelta[\s\S]*end_of_edit$/);
    const results = messages.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(8);
    expect(results[2]).toMatchObject({ toolCallId: steps[2]?.toolCalls?.[0]?.id, toolName: 'python', sentAsText: true });
    expect(results[2]?.text).toBe('344\n(Open file: /marshmallow-code__marshmallow/reproduce.py)\n(Current directory: /marshmallow-code__marshmallow)\nbash-$');
    expect(steps.every((m) => m.sentAsText === true)).toBe(true);
    // The demonstration and the issue stay user messages: no call was open.
    expect(messages.slice(0, 3).map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expectCanonical(transcript);
  });

  it('keeps the run totals of model_stats in the header', async () => {
    const transcript = await sweAgent.import(FILE, {});
    expect(transcript.header.totals).toEqual({ costUsd: 0.23265, input: 21_354, output: 637, calls: 9 });
    expect(transcript.header.model).toBeUndefined();
  });

  it('takes the model of a 0.x run from its replay_config, a SWE-agent shortcut mapped to the model it calls', async () => {
    const document = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
    document.replay_config = JSON.stringify({ agent: { model: { model_name: 'gpt4', per_instance_cost_limit: 2 } } });
    const transcript = await sweAgent.import(writeTemp('run.traj', JSON.stringify(document)), {});
    expect(transcript.header.model).toBe('gpt-4-1106-preview');
    expect(messagesOf(transcript).find((m) => m.role === 'assistant')?.model).toBe('gpt-4-1106-preview');
  });

  it('leaves function-calling trajectories (1.x, fixtures/real/swe-agent) on their native calls', async () => {
    const transcript = await sweAgent.import('fixtures/real/swe-agent/marshmallow-1867.function-calling.traj', {});
    const steps = messagesOf(transcript).filter((m) => m.role === 'assistant');
    expect(steps.reduce((n, m) => n + (m.toolCalls?.length ?? 0), 0)).toBe(11);
    expect(steps.some((m) => m.sentAsText === true)).toBe(false);
    // A replayed run records no spending: there are no totals to keep.
    expect(transcript.header.totals).toBeUndefined();
  });
});
