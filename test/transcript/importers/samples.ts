/**
 * Small logs in each format, written the way the real agents write them (field names and nesting
 * copied from the files under fixtures/real/), for the tests of mapping details and broken input.
 */
import { jsonl } from './helpers.js';

const session = 'sess-1';
const claudeBase = { sessionId: session, isSidechain: false, userType: 'external', cwd: '/tmp/p', version: '1.0.95' };

export function claudeUser(uuid: string, content: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...claudeBase, type: 'user', uuid, timestamp: '2025-08-28T12:57:08.611Z', message: { role: 'user', content }, ...extra };
}

export function claudeAssistant(uuid: string, id: string, content: unknown[], usage: Record<string, number> = {}): Record<string, unknown> {
  return {
    ...claudeBase,
    type: 'assistant',
    uuid,
    timestamp: '2025-08-28T12:57:10.000Z',
    message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-20250514', content, usage },
  };
}

export const claudeSample = jsonl(
  { type: 'queue-operation', operation: 'dequeue', timestamp: '2026-01-21T06:20:30.851Z', sessionId: session },
  claudeUser('u1', 'Write hello.sh'),
  claudeAssistant('a1', 'msg_1', [{ type: 'thinking', thinking: 'Plan it.', signature: 'sig' }], {
    input_tokens: 10,
    cache_creation_input_tokens: 100,
    cache_read_input_tokens: 1000,
    output_tokens: 2,
  }),
  claudeAssistant('a2', 'msg_1', [{ type: 'text', text: 'Writing it.' }], {
    input_tokens: 10,
    cache_creation_input_tokens: 100,
    cache_read_input_tokens: 1000,
    output_tokens: 2,
  }),
  claudeAssistant('a3', 'msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: 'hello.sh' } }], {
    input_tokens: 10,
    cache_creation_input_tokens: 100,
    cache_read_input_tokens: 1000,
    output_tokens: 57,
  }),
  claudeUser('u2', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'File created' }]),
);

export function codexLine(type: string, payload: Record<string, unknown>, timestamp = '2025-09-19T09:02:12.457Z'): Record<string, unknown> {
  return { timestamp, type, payload };
}

export function tokenCount(last: Record<string, number>, total: Record<string, number>): Record<string, unknown> {
  return codexLine('event_msg', { type: 'token_count', info: { total_token_usage: total, last_token_usage: last, model_context_window: 272000 } });
}

export const codexSample = jsonl(
  codexLine('session_meta', { id: 'rollout-1', timestamp: '2025-09-19T09:02:12.446Z', cwd: '/p', instructions: null }),
  codexLine('turn_context', { cwd: '/p', model: 'gpt-5-codex' }),
  codexLine('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] }),
  codexLine('event_msg', { type: 'user_message', message: 'list files' }),
  codexLine('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Use ls.' }], content: null, encrypted_content: 'x' }),
  codexLine('response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'call_1' }),
  tokenCount(
    { input_tokens: 100, cached_input_tokens: 40, output_tokens: 20, reasoning_output_tokens: 8 },
    { input_tokens: 100, cached_input_tokens: 40, output_tokens: 20, reasoning_output_tokens: 8 },
  ),
  codexLine('response_item', { type: 'function_call_output', call_id: 'call_1', output: 'a.txt' }),
  codexLine('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'One file.' }] }),
  tokenCount(
    { input_tokens: 130, cached_input_tokens: 100, output_tokens: 5 },
    { input_tokens: 230, cached_input_tokens: 140, output_tokens: 25, reasoning_output_tokens: 8 },
  ),
);

export const geminiCliSample = jsonl(
  { sessionId: 'gem-1', projectHash: 'abc', startTime: '2026-04-23T12:52:52.759Z', lastUpdated: '2026-04-23T12:52:52.759Z', kind: 'main' },
  { id: 'm1', timestamp: '2026-04-23T12:53:05.283Z', type: 'user', content: [{ text: 'read README' }] },
  { $set: { lastUpdated: '2026-04-23T12:53:05.283Z' } },
  {
    id: 'm2',
    timestamp: '2026-04-23T12:53:11.257Z',
    type: 'gemini',
    content: '',
    thoughts: [{ subject: 'Reading', description: 'Open the file.' }],
    tokens: { input: 100, output: 10, cached: 0, thoughts: 5, tool: 0, total: 115 },
    model: 'gemini-2.5-pro',
  },
  {
    id: 'm2',
    timestamp: '2026-04-23T12:53:11.257Z',
    type: 'gemini',
    content: '',
    thoughts: [{ subject: 'Reading', description: 'Open the file.' }],
    tokens: { input: 100, output: 10, cached: 0, thoughts: 5, tool: 0, total: 115 },
    model: 'gemini-2.5-pro',
    toolCalls: [
      {
        id: 'c1',
        name: 'read_file',
        args: { file_path: 'README.md' },
        result: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: '# Title' } } }],
        status: 'success',
      },
    ],
  },
  {
    id: 'm3',
    timestamp: '2026-04-23T12:53:20.000Z',
    type: 'gemini',
    content: 'It is a title.',
    tokens: { input: 130, output: 6, cached: 90, thoughts: 0, tool: 0, total: 136 },
    model: 'gemini-2.5-flash',
  },
);

export const sweAgentSample = `${JSON.stringify(
  {
    environment: 'main',
    trajectory: [],
    history: [
      { message_type: 'system_prompt', role: 'system', content: 'You are a programmer.', agent: 'main' },
      { message_type: 'observation', role: 'user', content: [{ type: 'text', text: 'Fix the bug.' }], agent: 'main' },
      {
        message_type: 'action',
        role: 'assistant',
        content: 'Look first.',
        thought: 'Look first.',
        action: 'ls',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
      },
      { message_type: 'observation', role: 'tool', content: 'a.py', tool_call_ids: ['call_1'] },
    ],
    info: { exit_status: 'submitted', model_stats: { instance_cost: 0.5, tokens_sent: 1000, tokens_received: 50, api_calls: 1 } },
    replay_config: JSON.stringify({ agent: { model: { name: 'gpt-4o' } }, problem_statement: { id: 'demo__demo-1' } }),
  },
  null,
  4,
)}\n`;

export const miniSweAgentSample = `${JSON.stringify(
  {
    info: { exit_status: 'Submitted', submission: 'diff --git a/a.py b/a.py', model_stats: { instance_cost: 0.0123, api_calls: 3 }, mini_version: '1.15.0' },
    messages: [
      { role: 'system', content: 'You are a helpful assistant that can interact with a shell.' },
      { role: 'user', content: '<pr_description>Fix the bug in a.py.</pr_description>' },
      {
        role: 'assistant',
        content: 'THOUGHT: Look first.\n\n```bash\nls && cat a.py\n```',
        extra: {
          response: {
            model: 'google/gemini-3-pro-preview',
            created: 1763508910,
            usage: {
              prompt_tokens: 1397,
              completion_tokens: 219,
              prompt_tokens_details: { cached_tokens: 0 },
              completion_tokens_details: { reasoning_tokens: 136 },
            },
          },
        },
      },
      { role: 'user', content: '<returncode>0</returncode>\n<output>\na.py\nx = 1\n</output>' },
      {
        role: 'assistant',
        content: 'THOUGHT: Two ideas.\n\n```bash\necho one\n```\n\n```bash\necho two\n```',
        extra: { response: { model: 'google/gemini-3-pro-preview', created: 1763508920, usage: { prompt_tokens: 1500, completion_tokens: 40 } } },
      },
      { role: 'user', content: 'Please always provide EXACTLY ONE action in triple backticks, found 2 actions.' },
      {
        role: 'assistant',
        content: 'THOUGHT: Done.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff\n```',
        extra: {
          response: {
            model: 'google/gemini-3-pro-preview',
            created: 1763508930,
            usage: { prompt_tokens: 1600, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 1400 } },
          },
        },
      },
      { role: 'user', content: 'diff --git a/a.py b/a.py' },
    ],
    trajectory_format: 'mini-swe-agent-1',
    instance_id: 'demo__demo-2',
  },
  null,
  2,
)}\n`;

export const openhandsSample = `${JSON.stringify(
  [
    { id: 0, timestamp: '2025-01-27T22:44:56.900854', source: 'user', message: 'Make a game.', action: 'message', args: { content: 'Make a game.' } },
    {
      id: 3,
      timestamp: '2025-01-27T22:45:13.764487',
      source: 'agent',
      message: 'Running command: ls',
      action: 'run',
      tool_call_metadata: {
        function_name: 'execute_bash',
        tool_call_id: 'toolu_1',
        model_response: {
          id: 'resp-1',
          model: 'claude-3-5-sonnet-20241022',
          choices: [
            {
              message: {
                role: 'assistant',
                content: 'Let me look.',
                tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'execute_bash', arguments: '{"command": "ls"}' } }],
              },
            },
          ],
          usage: { prompt_tokens: 3486, completion_tokens: 35, prompt_tokens_details: { cached_tokens: 3000 } },
        },
        total_calls_in_response: 1,
      },
      args: { command: 'ls', thought: 'Let me look.' },
    },
    {
      id: 4,
      timestamp: '2025-01-27T22:45:14.000000',
      source: 'agent',
      message: 'Command finished',
      cause: 3,
      observation: 'run',
      content: 'game.py',
      extras: {},
    },
    {
      id: 5,
      timestamp: '2025-01-27T22:45:15.000000',
      source: 'environment',
      message: '',
      observation: 'agent_state_changed',
      content: '',
      extras: { agent_state: 'finished' },
    },
  ],
  null,
  2,
)}\n`;

export const openaiMessagesSample = `${JSON.stringify(
  [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
    { role: 'assistant', content: 'It is 18°C.' },
  ],
  null,
  2,
)}\n`;

export const geminiContentsSample = `${JSON.stringify(
  {
    systemInstruction: { parts: [{ text: 'Be brief.' }] },
    contents: [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [{ text: 'Check the tool.', thought: true, thoughtSignature: 'c2ln' }, { functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '18°C' } } }] },
      { role: 'model', parts: [{ text: 'It is ' }, { text: '18°C.' }] },
    ],
  },
  null,
  2,
)}\n`;

/** Each sample with the file name its format is usually found under. */
export const SAMPLES = {
  'claude-code': { name: 'session.jsonl', text: claudeSample },
  codex: { name: 'rollout.jsonl', text: codexSample },
  'gemini-cli': { name: 'session.jsonl', text: geminiCliSample },
  'swe-agent': { name: 'run.traj', text: sweAgentSample },
  'mini-swe-agent': { name: 'demo.traj.json', text: miniSweAgentSample },
  openhands: { name: 'trajectory.json', text: openhandsSample },
  'gemini-contents': { name: 'contents.json', text: geminiContentsSample },
  'openai-messages': { name: 'messages.json', text: openaiMessagesSample },
} as const;
