import { describe, expect, it } from 'vitest';
import { renderGeminiRequest } from '../../src/wire/render-gemini.js';
import { renderOpenAIRequest } from '../../src/wire/render-openai.js';
import { simulateCall, type SimulateInput } from '../../src/simulator/model.js';
import type { SimDirective } from '../../src/contracts/provider.js';
import type { ContextMessage } from '../../src/transcript/types.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import { agentSession } from '../providers/conversation.js';

const tokenizer = createTokenizer('o200k_base');

function geminiInput(messages: ContextMessage[], directive: SimDirective, instruction?: string): SimulateInput {
  const rendering = renderGeminiRequest(messages, instruction);
  const body = JSON.parse(JSON.stringify({ contents: rendering.contents, systemInstruction: rendering.systemInstruction }));
  return { format: 'gemini', body, model: 'gemini-2.5-flash', directive, shape: rendering.shape, tokenizer, seed: 3, key: 'gemini-1' };
}

describe('the simulated model', () => {
  it('replays a step in Gemini parts, the signature on the first function call', () => {
    const reply = simulateCall(
      geminiInput(agentSession(), {
        purpose: 'step',
        window: 10_000,
        replay: { text: 'Editing.', thinking: 'fix it', toolCalls: [{ id: 'c9', name: 'edit', args: {} }], thoughtSignature: 'sig-9' },
      }),
    );
    expect(reply).toMatchObject({
      kind: 'http',
      status: 200,
      body: {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: 'fix it', thought: true },
                { text: 'Editing.' },
                { functionCall: { id: 'c9', name: 'edit', args: {} }, thoughtSignature: 'sig-9' },
              ],
            },
          },
        ],
        usageMetadata: { promptTokenCount: tokenizer.countMessages(agentSession(), 'gemini'), thoughtsTokenCount: tokenizer.count('fix it') },
      },
    });
  });

  it('summarises for `summary` and `recap` within the directive budget', () => {
    for (const purpose of ['summary', 'recap'] as const) {
      const reply = simulateCall(geminiInput(agentSession(), { purpose, window: 10_000, budgetTokens: 25 }, 'Summarise.'));
      if (reply.kind !== 'http' || typeof reply.body === 'string') throw new Error('expected a JSON reply');
      const text = JSON.stringify(reply.body);
      const usage = (reply.body as { usageMetadata: { candidatesTokenCount: number } }).usageMetadata;
      expect(usage.candidatesTokenCount).toBeGreaterThan(0);
      expect(usage.candidatesTokenCount).toBeLessThanOrEqual(25);
      expect(text).toContain('login');
    }
  });

  it('answers a probe from the context, in OpenAI format too', () => {
    const messages = [...agentSession(), { type: 'message' as const, id: 'q', role: 'user' as const, text: 'Which npm test command was run?' }];
    const rendering = renderOpenAIRequest(messages, 'Answer from the conversation.');
    const reply = simulateCall({
      format: 'openai',
      body: { model: 'gpt-4.1', messages: rendering.messages },
      model: 'gpt-4.1',
      directive: { purpose: 'probe', window: 10_000 },
      shape: rendering.shape,
      tokenizer,
      seed: 3,
      key: 'openai-1',
    });
    expect(reply).toMatchObject({ status: 200, body: { choices: [{ message: { content: expect.stringContaining('npm test -- test/auth/login.test.ts') } }] } });
  });

  it('checks the quota refusal before anything else, then the window', () => {
    const rateLimit = { retryAfterMs: 2_000, limitTokens: 10, remainingTokens: 0, resetMs: 2_000 };
    expect(simulateCall(geminiInput(agentSession(), { purpose: 'step', window: 1, rateLimit }))).toMatchObject({ status: 429 });
    expect(simulateCall(geminiInput(agentSession(), { purpose: 'step', window: 1 }))).toMatchObject({
      status: 400,
      body: {
        error: {
          status: 'INVALID_ARGUMENT',
          message: expect.stringMatching(/^The input token count \(\d+\) exceeds the maximum number of tokens allowed \(1\)\.$/),
        },
      },
    });
  });

  it('is a pure function of its input, faults included', () => {
    const directive: SimDirective = { purpose: 'summary', window: 10_000, budgetTokens: 30 };
    expect(simulateCall(geminiInput(agentSession(), directive))).toEqual(simulateCall(geminiInput(agentSession(), directive)));
    const statusOf = (key: string) => {
      const reply = simulateCall({ ...geminiInput(agentSession(), directive), key, faults: { server500: 0.5 } });
      return reply.kind === 'http' ? reply.status : 0;
    };
    const keys = Array.from({ length: 40 }, (_, i) => `gemini-${i}`);
    const statuses = keys.map(statusOf);
    expect(new Set(statuses)).toEqual(new Set([200, 500]));
    expect([...keys].reverse().map(statusOf).reverse()).toEqual(statuses);
  });
});

describe('the simulated model and the judge', () => {
  it('refuses to fake a judge', () => {
    const reply = simulateCall(geminiInput(agentSession(), { purpose: 'judge', window: 10_000 }));
    expect(reply).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('judge is not simulated') } } });
  });
});

describe('what the simulated model counts', () => {
  it('counts a Gemini request from the messages it was rendered from: a recorded reasoning size is not counted again as thought text', () => {
    // Gemini CLI logs keep a thought summary and the size of what was re-sent (`reasoningTokens`):
    // the engine charges the size as hidden reasoning and never the summary text, and the body's
    // thought part, parsed back, would carry the text without the size.
    const messages: ContextMessage[] = [
      { type: 'message', id: 'u', role: 'user', text: 'Fix the failing test in the parser module.' },
      {
        type: 'message',
        id: 'a',
        role: 'assistant',
        text: 'Looking at it.',
        thinking: 'The parser drops the last token when the input ends early.',
        reasoningTokens: 40,
      },
      { type: 'message', id: 'u2', role: 'user', text: 'Go on.' },
    ];
    const directive: SimDirective = { purpose: 'step', window: 10_000, replay: { text: 'Done.' } };
    const input = geminiInput(messages, directive);
    const promptOf = (reply: ReturnType<typeof simulateCall>) =>
      reply.kind === 'http' ? (reply.body as { usageMetadata: { promptTokenCount: number } }).usageMetadata.promptTokenCount : -1;
    const fromCanonical = promptOf(simulateCall({ ...input, canonical: { messages, model: 'gemini-2.5-flash' } }));
    expect(fromCanonical).toBe(tokenizer.countMessages(messages, 'gemini'));
    // Parsed back from the body alone, the thought text is counted: more by its own tokens.
    expect(promptOf(simulateCall(input))).toBe(fromCanonical + tokenizer.count(messages[1]?.thinking ?? ''));
  });
});
