import { describe, expect, it } from 'vitest';
import { openhands } from '../../../src/transcript/importers/openhands.js';
import { expectCanonical, messagesOf, writeTemp } from './helpers.js';
import { openhandsSample } from './samples.js';

describe('openhands importer', () => {
  it('pairs observations with their actions by cause, with the usage of the model response', async () => {
    const transcript = await openhands.import(writeTemp('trajectory.json', openhandsSample), {});
    const [user, assistant, tool] = messagesOf(transcript);
    expect(user).toMatchObject({ id: 'event-0', role: 'user', text: 'Make a game.', at: '2025-01-27T22:44:56.900854Z' });
    expect(assistant).toMatchObject({
      id: 'event-3',
      role: 'assistant',
      text: 'Let me look.',
      toolCalls: [{ id: 'toolu_1', name: 'execute_bash', args: { command: 'ls' } }],
      usage: { input: 3486, cachedInput: 3000, output: 35 },
      model: 'claude-3-5-sonnet-20241022',
    });
    expect(tool).toMatchObject({ id: 'event-4', role: 'tool', toolCallId: 'toolu_1', toolName: 'execute_bash', text: 'game.py' });
    expect(transcript.unknown).toEqual({ 'observation:agent_state_changed': 1 });
    expectCanonical(transcript);
  });

  it('merges the actions of one model response into one assistant message', async () => {
    const response = {
      id: 'resp-9',
      model: 'gpt-4o',
      choices: [
        {
          message: {
            role: 'assistant',
            content: 'Two things.',
            tool_calls: [1, 2].map((n) => ({ id: `c${n}`, type: 'function', function: { name: 'execute_bash', arguments: `{"command": "echo ${n}"}` } })),
          },
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 20 },
    };
    const events = [1, 2].map((n) => ({
      id: n,
      source: 'agent',
      action: 'run',
      args: { command: `echo ${n}` },
      tool_call_metadata: { function_name: 'execute_bash', tool_call_id: `c${n}`, model_response: response },
    }));
    const transcript = await openhands.import(writeTemp('t.json', JSON.stringify(events)), {});
    expect(messagesOf(transcript)).toEqual([
      expect.objectContaining({ toolCalls: [expect.objectContaining({ id: 'c1' }), expect.objectContaining({ id: 'c2' })], usage: { input: 100, output: 20 } }),
    ]);
  });
});
