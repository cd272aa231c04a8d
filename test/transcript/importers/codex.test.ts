import { describe, expect, it } from 'vitest';
import { codex } from '../../../src/transcript/importers/codex.js';
import { expectCanonical, jsonl, messagesOf, writeTemp } from './helpers.js';
import { codexLine, codexSample, tokenCount } from './samples.js';
import { toolCallText } from '../../../src/tokens/tokenizer.js';

const importText = async (text: string) => codex.import(writeTemp('rollout.jsonl', text), {});

const user = (text: string) => codexLine('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const say = (text: string) => codexLine('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
const call = (id: string) => codexLine('response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: id });
const output = (id: string) => codexLine('response_item', { type: 'function_call_output', call_id: id, output: { content: 'a.txt', success: true } });
const usage = (input: number, total: number) => tokenCount({ input_tokens: input, output_tokens: 1 }, { input_tokens: total, output_tokens: 1 });

const reasoning = (encrypted: string | null) => codexLine('response_item', { type: 'reasoning', summary: [], content: null, encrypted_content: encrypted });
const reasoned = (input: number, reasoningTokens: number, total: number) =>
  tokenCount({ input_tokens: input, output_tokens: reasoningTokens + 5, reasoning_output_tokens: reasoningTokens }, { input_tokens: total, output_tokens: 1 });

describe('codex importer', () => {
  it("sizes a call's encrypted reasoning by its recorded reasoning output tokens, and only when it can be sent back", async () => {
    const transcript = await importText(
      jsonl(
        user('go'),
        reasoning('gAAAAB...'),
        call('c1'),
        reasoned(100, 640, 100),
        output('c1'),
        reasoning(null),
        call('c2'),
        reasoned(200, 192, 300),
        output('c2'),
      ),
    );
    const steps = messagesOf(transcript).filter((m) => m.role === 'assistant');
    // The second item has no encrypted content: the agent could not send it back, so it costs nothing later.
    expect(steps.map((s) => s.reasoningTokens)).toEqual([640, undefined]);
    expectCanonical(transcript);
  });

  it('makes one assistant message per model call, with its reasoning, calls and usage', async () => {
    const transcript = await importText(codexSample);
    const [question, step1, result, step2] = messagesOf(transcript);
    expect(question).toMatchObject({ role: 'user', text: 'list files' });
    expect(step1).toMatchObject({
      role: 'assistant',
      text: '',
      thinking: 'Use ls.',
      toolCalls: [{ id: 'call_1', name: 'shell', args: { command: ['ls'] } }],
      usage: { input: 100, cachedInput: 40, output: 20, reasoning: 8 },
      model: 'gpt-5-codex',
      dialect: 'openai',
    });
    expect(result).toMatchObject({ role: 'tool', toolCallId: 'call_1', toolName: 'shell', text: 'a.txt' });
    expect(step2).toMatchObject({ role: 'assistant', text: 'One file.', usage: { input: 130, cachedInput: 100, output: 5 } });
    expect(transcript.header).toMatchObject({ id: 'rollout-1', model: 'gpt-5-codex', contextWindow: 272000 });
    // user_message only echoes the response item: nothing unknown, nothing twice.
    expect(transcript.unknown).toEqual({});
    expect(messagesOf(transcript)).toHaveLength(4);
    expectCanonical(transcript);
  });

  it('gives a usage logged before its call (older rollouts) to that call', async () => {
    const transcript = await importText(jsonl(user('go'), usage(10, 10), say('first'), call('c1'), output('c1'), usage(20, 30), call('c2'), output('c2')));
    const steps = messagesOf(transcript).filter((m) => m.role === 'assistant');
    expect(steps.map((s) => [s.text, s.toolCalls?.map((c) => c.id), s.usage?.input])).toEqual([
      ['first', ['c1'], 10],
      ['', ['c2'], 20],
    ]);
  });

  it('ignores a repeated report of the same call (same running total)', async () => {
    const transcript = await importText(jsonl(user('go'), say('hi'), usage(10, 10), usage(10, 10), user('again'), say('ok'), usage(12, 22)));
    const steps = messagesOf(transcript).filter((m) => m.role === 'assistant');
    expect(steps.map((s) => s.usage?.input)).toEqual([10, 12]);
    expect(transcript.unknown).toEqual({});
  });

  it('keeps a compaction, freeform tool calls, and counts what it cannot map', async () => {
    const transcript = await importText(
      jsonl(
        user('go'),
        codexLine('response_item', { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch', call_id: 'p1' }),
        codexLine('response_item', { type: 'custom_tool_call_output', call_id: 'p1', output: 'Done' }),
        codexLine('compacted', { message: 'Summary of the work so far.' }),
        codexLine('response_item', { type: 'web_search_call', status: 'completed' }),
        codexLine('event_msg', { type: 'exec_command_end', call_id: 'p1' }),
        codexLine('event_msg', { type: 'token_count', info: null, rate_limits: {} }),
      ),
    );
    expect(messagesOf(transcript)[1]?.toolCalls).toEqual([{ id: 'p1', name: 'apply_patch', args: { input: '*** Begin Patch' }, freeform: true }]);
    expect(transcript.events.find((e) => e.type === 'compaction')).toMatchObject({ summary: 'Summary of the work so far.' });
    // A token_count without usage reports rate limits only: nothing to import, nothing unknown.
    expect(transcript.unknown).toEqual({ 'response_item:web_search_call': 1, 'event_msg:exec_command_end': 1 });
  });
});

describe('codex importer: shell outputs as the model got them', () => {
  const shellOutput = JSON.stringify({ output: 'a\r\n  b\n', metadata: { exit_code: 1, duration_seconds: 0.0 } });
  const shell = (id: string): Record<string, unknown> =>
    codexLine('response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: id });
  const output = (id: string, text: string): Record<string, unknown> => codexLine('response_item', { type: 'function_call_output', call_id: id, output: text });
  const patch = codexLine('response_item', { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch', call_id: 'p1' });

  it('re-serializes a shell output as structured text in a rollout with the freeform apply_patch, as Codex does for the model', async () => {
    const transcript = await importText(
      jsonl(user('go'), shell('s1'), output('s1', shellOutput), patch, output('p1', 'Done'), shell('s2'), output('s2', '{"output":"cut')),
    );
    const tools = messagesOf(transcript).filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.text)).toEqual(['Exit code: 1\nWall time: 0 seconds\nOutput:\na\r\n  b\n', 'Done', '{"output":"cut']);
  });

  it('keeps the JSON where apply_patch is not freeform (Codex 0.39 sends it so, and is billed for it)', async () => {
    const transcript = await importText(jsonl(user('go'), shell('s1'), output('s1', shellOutput)));
    expect(messagesOf(transcript).find((m) => m.role === 'tool')?.text).toBe(shellOutput);
  });
});

describe('codex importer on the real apply_patch rollouts (fixtures/real/codex-patches)', () => {
  const ROLLOUTS = ['moonmind-019a7ae6', 'moonmind-019a7fa9'].map((name) => `fixtures/real/codex-patches/${name}.jsonl`);

  it.each(ROLLOUTS)('%s: its 13 apply_patch calls are freeform, counted as the raw patch the model wrote', async (file) => {
    const transcript = await codex.import(file, {});
    const patches = messagesOf(transcript).flatMap((m) => (m.toolCalls ?? []).filter((c) => c.name === 'apply_patch'));
    expect(patches).toHaveLength(13);
    for (const call of patches) {
      expect(call.freeform).toBe(true);
      const input = call.args.input as string;
      expect(input).toMatch(/^\*\*\* Begin Patch/);
      // The charged text holds the patch's own newlines and quotes, not their JSON escapes.
      expect(toolCallText(call)).toBe(`apply_patch${input}`);
    }
  });

  it.each(ROLLOUTS)('%s: an output over 10 KiB is kept as Codex cut it for the model (head within 5 KiB, total lines)', async (file) => {
    const transcript = await codex.import(file, {});
    const results = messagesOf(transcript).filter((m) => m.role === 'tool');
    const cut = results.filter((m) => m.text.startsWith('Total output lines: 1\n\n{"output":'));
    expect(cut.length).toBeGreaterThan(0);
    for (const m of results) expect(Buffer.byteLength(m.text, 'utf8')).toBeLessThanOrEqual(10 * 1024 + 100);
    for (const m of cut) expect(Buffer.byteLength(m.text, 'utf8')).toBeLessThan(5 * 1024 + 100);
  });
});
