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
