import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors.js';
import { miniSweAgent } from '../../../src/transcript/importers/mini-swe-agent.js';
import { detectFormat, importTranscript } from '../../../src/transcript/importers/index.js';
import { readHead } from '../../../src/transcript/importers/shared/lines.js';
import { createTokenizer } from '../../../src/tokens/tokenizer.js';
import { renderOpenAIRequest } from '../../../src/wire/render-openai.js';
import type { ContextMessage } from '../../../src/transcript/types.js';
import { expectCanonical, messagesOf, writeTemp } from './helpers.js';
import { miniSweAgentSample } from './samples.js';

const REAL = 'fixtures/real/mini-swe-agent/django__django-11163.traj.json';

describe('mini-swe-agent importer', () => {
  it('turns each acted-on reply into a bash call and the next user message into its result', async () => {
    const transcript = await miniSweAgent.import(writeTemp('demo.traj.json', miniSweAgentSample), {});
    expect(messagesOf(transcript).map((m) => [m.id, m.role, m.toolCalls?.map((c) => c.args.command) ?? m.toolCallId ?? null])).toEqual([
      ['message-0', 'system', null],
      ['message-1', 'user', null],
      ['message-2', 'assistant', ['ls && cat a.py']],
      ['message-3', 'tool', 'message-2/bash'],
      // Two bash blocks: the agent ran nothing and answered with a format error, a plain user message.
      ['message-4', 'assistant', null],
      ['message-5', 'user', null],
      ['message-6', 'assistant', ['echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff']],
      ['message-7', 'tool', 'message-6/bash'],
    ]);
    const [, , reply, output] = messagesOf(transcript);
    expect(reply).toMatchObject({
      text: 'THOUGHT: Look first.\n\n```bash\nls && cat a.py\n```',
      model: 'google/gemini-3-pro-preview',
      at: '2025-11-18T23:35:10.000Z',
      usage: { input: 1397, output: 219, cachedInput: 0, reasoning: 136 },
      sentAsText: true,
    });
    expect(output).toMatchObject({ text: '<returncode>0</returncode>\n<output>\na.py\nx = 1\n</output>', toolName: 'bash', sentAsText: true });
    expect(messagesOf(transcript)[4]?.sentAsText).toBeUndefined();
    expect(transcript.header).toMatchObject({ id: 'demo__demo-2', model: 'google/gemini-3-pro-preview', dialect: 'openai' });
    expect(transcript.header.title).toBe('mini-swe-agent run: exit_status Submitted; api_calls 3; instance_cost 0.0123');
    expectCanonical(transcript);
  });

  it('is sent and counted as the plain text the model saw: no call framing, no second copy of the command', async () => {
    const transcript = await miniSweAgent.import(writeTemp('demo.traj.json', miniSweAgentSample), {});
    const imported = messagesOf(transcript);
    const plain: ContextMessage[] = imported.map(({ toolCalls: _c, toolCallId: _i, toolName: _n, sentAsText: _s, ...m }) => ({
      ...m,
      role: m.role === 'tool' ? 'user' : m.role,
    }));
    expect(renderOpenAIRequest(imported).messages).toEqual(renderOpenAIRequest(plain).messages);
    const tokenizer = createTokenizer('o200k_base');
    for (const format of ['openai', 'gemini'] as const) {
      expect(tokenizer.countMessages(imported, format)).toBe(tokenizer.countMessages(plain, format));
    }
  });

  it('reads a real trajectory: 13 calls, the provider-counted usage of each', async () => {
    const transcript = await miniSweAgent.import(REAL, {});
    const messages = messagesOf(transcript);
    const steps = messages.filter((m) => m.role === 'assistant');
    expect([messages.length, steps.length, messages.filter((m) => m.role === 'tool').length]).toEqual([28, 13, 13]);
    expect(steps[0]?.usage).toEqual({ input: 1397, output: 219, cachedInput: 0, reasoning: 136 });
    expect(steps.at(-1)?.usage?.input).toBe(7776);
    expect(transcript.header.id).toBe('django__django-11163');
    expectCanonical(transcript);
  });

  it('refuses another trajectory_format, naming the field', async () => {
    const file = writeTemp('demo.traj.json', miniSweAgentSample.replace('"mini-swe-agent-1"', '"mini-swe-agent-2"'));
    const error = await miniSweAgent.import(file, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).location).toEqual({ file, field: 'trajectory_format' });
  });

  it('names the entry and field of a message of the wrong shape, and skips it under lenient', async () => {
    const file = writeTemp('demo.traj.json', miniSweAgentSample.replace('"role": "system"', '"role": "robot"'));
    const error = await miniSweAgent.import(file, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).location).toMatchObject({ file, field: 'messages.0.role' });
    const lenient = await miniSweAgent.import(file, { lenient: true });
    expect(lenient.skipped).toHaveLength(1);
    expect(messagesOf(lenient)).toHaveLength(7);
  });

  it('is detected from the head of a pretty-printed file', () => {
    expect(miniSweAgent.detect(miniSweAgentSample.split('\n').slice(0, 12))).toBe(true);
    expect(miniSweAgent.detect(['{', '  "history": ['])).toBe(false);
  });
});

describe('detection of a mini-swe-agent trajectory whose format keys come late', () => {
  /** A real trajectory with a 300 KB submission diff: `mini_version` and `trajectory_format` both sit past the head. */
  function longHeaded(): string {
    const document = JSON.parse(readFileSync(REAL, 'utf8')) as { info: { submission: string } };
    document.info.submission = document.info.submission.repeat(Math.ceil(300_000 / document.info.submission.length));
    return writeTemp('long-headed.traj.json', JSON.stringify(document, null, 2));
  }

  it('is not told by its head alone', async () => {
    const file = longHeaded();
    expect(miniSweAgent.detect(await readHead(file))).toBe(false);
  });

  it('is detected from the outline of the whole document, and imports as the original does', async () => {
    const file = longHeaded();
    expect((await detectFormat(file))?.name).toBe('mini-swe-agent');
    const imported = await importTranscript(file);
    expect(messagesOf(imported)).toEqual(messagesOf(await importTranscript(REAL)));
  });

  it('still refuses a JSON document no importer knows', async () => {
    expect(await detectFormat(writeTemp('other.json', JSON.stringify({ info: { submission: 'x'.repeat(300_000) }, rows: [1, 2] })))).toBeUndefined();
  });
});
