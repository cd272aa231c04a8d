import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Dialect, MessageEvent, Transcript } from '../../src/transcript/types.js';
import type { MessageDraft } from '../../src/transcript/draft.js';
import type { FidelityFile, FidelityStep } from '../../src/fidelity/types.js';
import type { ProviderName } from '../../src/contracts/provider.js';
import { measureFidelity, poolByFormat } from '../../src/fidelity/measure.js';
import { tokenizerForModel } from '../../src/tokens/tokenizer.js';
import { serializeTranscript } from '../../src/transcript/write.js';
import { writeFiles } from '../helpers/temp.js';

const msg = (id: string, role: MessageEvent['role'], text: string, extra: Partial<MessageDraft> = {}): MessageDraft => ({
  type: 'message',
  id,
  role,
  text,
  ...extra,
});

/**
 * A session whose recorded input is exactly what ctxbench counts plus `hidden` tokens, as if the
 * agent had sent a system prompt the log does not hold. The second step has no recorded usage.
 */
function sessionWithHiddenPrefix(dialect: Dialect, model: string, hidden: number): Transcript {
  const format: ProviderName = dialect === 'gemini' ? 'gemini' : 'openai';
  // Counted as the replay counts (calibrated for Gemini): the hidden prefix is then all that differs.
  const tokenizer = tokenizerForModel(model);
  const events: MessageDraft[] = [
    msg('u1', 'user', 'List the files under src/ and tell me which one parses the config.'),
    msg('a1', 'assistant', '', { thinking: 'I should look at the tree first.', toolCalls: [{ id: 'c1', name: 'shell', args: { cmd: 'ls src' } }] }),
    msg('t1', 'tool', 'config.ts\nmain.ts\nparse "options".ts\n', { toolCallId: 'c1', toolName: 'shell' }),
    msg('a2', 'assistant', 'It is config.ts; main.ts only calls it.'),
    msg('u2', 'user', 'Show me the function that reads the port.'),
    msg('a3', 'assistant', 'readPort() in config.ts:12 returns Number(env.PORT ?? 8080).'),
  ];
  events.forEach((event, i) => {
    if (event.role !== 'assistant' || event.id === 'a2') return;
    event.usage = { input: tokenizer.countMessages(events.slice(0, i), format) + hidden, output: 10 };
  });
  return {
    header: { type: 'session', id: `hidden-${dialect}`, source: { format: 'hand' }, dialect, model },
    events,
    file: 'session.ctx.jsonl',
    skipped: [],
    unknown: {},
  };
}

async function measureOne(transcript: Transcript) {
  const dir = writeFiles({ 'session.ctx.jsonl': serializeTranscript(transcript) });
  const report = await measureFidelity([join(dir, 'session.ctx.jsonl')]);
  return { report, file: report.files[0] as FidelityFile };
}

describe('measureFidelity', () => {
  it.each([
    { dialect: 'openai' as const, model: 'gpt-4.1', provider: 'openai' },
    { dialect: 'gemini' as const, model: 'gemini-2.5-flash', provider: 'gemini' },
  ])('replays a $dialect session on the $provider provider and recovers its hidden prefix exactly', async ({ dialect, model, provider }) => {
    const { report, file } = await measureOne(sessionWithHiddenPrefix(dialect, model, 1_500));
    expect(file).toMatchObject({
      format: 'hand',
      provider,
      model,
      encoding: 'o200k_base',
      calibrated: provider === 'gemini',
      compactions: 0,
      steps: 3,
      withoutUsage: 1,
      crashed: 0,
      offset: 1_500,
      offsetSteps: 2,
    });
    expect(file.compared.map((s) => s.messageId)).toEqual(['a1', 'a3']);
    for (const step of file.compared) {
      expect(step.offsetError).toBe(0);
      // Raw: o200k_base as it is, without the prefix (for Gemini also without its calibration).
      expect(step.rawError).toBeLessThan(-0.9);
      // The replay charges the estimated prefix on every request: computed is the whole prompt.
      expect(step.recorded - step.computed).toBe(0);
      expect(step.hidden).toBe(1_500);
    }
    expect(file.fit).toEqual({ slope: 1, intercept: 1_500 });
    expect(report.formats).toEqual([
      expect.objectContaining({ format: 'hand', files: 1, steps: 2, offset: expect.objectContaining({ medianAbs: 0, p95Abs: 0 }) }),
    ]);
  });

  it('compares the whole recorded prompt, cached part included', async () => {
    const transcript = sessionWithHiddenPrefix('openai', 'gpt-4.1', 0);
    const a3 = transcript.events.find((e): e is MessageDraft => e.type === 'message' && e.id === 'a3');
    if (a3?.usage?.input === undefined) throw new Error('fixture lost its usage');
    a3.usage.cachedInput = a3.usage.input - 5;
    const { file } = await measureOne(transcript);
    const step = file.compared.find((s) => s.messageId === 'a3');
    expect(step).toMatchObject({ cachedInput: a3.usage.input - 5, rawError: 0 });
  });
});

describe('poolByFormat', () => {
  const step = (n: number, rawError: number, offsetError: number): FidelityStep => ({
    step: n,
    messageId: `m${n}`,
    computed: 100,
    recorded: 200,
    hidden: 0,
    reasoning: 0,
    rawError,
    uncalibratedError: offsetError,
    offsetError,
  });
  const file = (name: string, format: string, steps: FidelityStep[]): FidelityFile => ({
    file: name,
    format,
    provider: 'openai',
    model: 'gpt-4.1',
    encoding: 'o200k_base',
    calibrated: false,
    compactions: 0,
    steps: steps.length,
    withoutUsage: 0,
    crashed: 0,
    offset: 100,
    offsetSteps: Math.min(3, steps.length),
    compared: steps,
  });

  it('pools the steps of every file of a format and names the worst step by its offset error', () => {
    const formats = poolByFormat([
      file('a.jsonl', 'codex', [step(0, -0.5, 0.01), step(1, -0.4, -0.03)]),
      file('b.jsonl', 'gemini-cli', []),
      file('c.jsonl', 'codex', [step(0, -0.6, 0.02)]),
    ]);
    expect(formats.map((f) => [f.format, f.files, f.steps])).toEqual([
      ['codex', 2, 3],
      ['gemini-cli', 1, 0],
    ]);
    expect(formats[0]?.raw).toMatchObject({ median: -0.5, p5: -0.6, p95: -0.4 });
    expect(formats[0]?.worst).toMatchObject({ file: 'a.jsonl', step: 1, offsetError: -0.03, rawError: -0.4 });
    expect(formats[1]?.raw).toBeUndefined();
    expect(formats[1]?.worst).toBeUndefined();
  });
});
