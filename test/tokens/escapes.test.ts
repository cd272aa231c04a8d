import { describe, expect, it } from 'vitest';
import { splitEscapes } from '../../src/tokens/escapes.js';
import { countTokens, createTokenizer, tokenizerForModel } from '../../src/tokens/tokenizer.js';
import { importTranscript } from '../../src/transcript/importers/index.js';
import type { ContextMessage } from '../../src/transcript/types.js';
import { median } from '../../src/stats.js';

const CLAUDE = { factor: 1.185, perToolCall: 55 };
/** The weight the recorded growth of the Claude Code logs implies (docs/fidelity.md, "Terminal escape sequences"). */
const CLAUDE_WITH_ESCAPES = { ...CLAUDE, perEscape: 3.5 };
const LOG = new URL('../../fixtures/real/claude-code-compactions/swordintel-e95a823a.jsonl', import.meta.url).pathname;

describe('splitEscapes', () => {
  it('finds colours, cursor moves, private modes, OSC hyperlinks and a lone ESC, and leaves the text', () => {
    const text = '\x1b[0;36m\x1b[1mtitle\x1b[0m \x1b[H\x1b[2K\x1b[?2026h \x1b]8;;https://x.y\x07link\x1b]8;;\x1b\\ end\x1b';
    expect(splitEscapes(text)).toEqual({ count: 9, stripped: 'title  link end' });
  });

  it('says a text without ESC has none', () => {
    expect(splitEscapes('plain [0m text')).toBeUndefined();
  });
});

describe('escape sequences counted per family (real Claude Code log)', async () => {
  const transcript = await importTranscript(LOG, { lenient: true });
  const messages = transcript.events.flatMap((e) => (e.type === 'message' ? [e] : []));
  const banner = messages.find((m) => m.role === 'tool' && m.text.includes('Claude Global Agents Bridge')) as ContextMessage;

  it('the banner holds 77 sequences, which o200k_base counts at 4 tokens or more each', () => {
    const split = splitEscapes(banner.text);
    expect(split?.count).toBe(77);
    expect(split?.stripped).not.toContain('\x1b');
    expect(countTokens('o200k_base', banner.text) - countTokens('o200k_base', split?.stripped ?? '')).toBeGreaterThanOrEqual(4 * 77);
  });

  it('weighs each sequence instead of its o200k_base tokens, in a text and in a message', () => {
    const split = splitEscapes(banner.text);
    const stripped = countTokens('o200k_base', split?.stripped ?? '');
    const tokenizer = createTokenizer('o200k_base', CLAUDE_WITH_ESCAPES);
    expect(tokenizer.count(banner.text)).toBe(Math.round(1.185 * stripped + 3.5 * 77));
    const before = createTokenizer('o200k_base', CLAUDE).countMessage(banner, 'openai');
    const saved = Math.round(1.185 * (countTokens('o200k_base', banner.text) - stripped)) - 3.5 * 77;
    expect(Math.abs(tokenizer.countMessage(banner, 'openai') - (before - saved))).toBeLessThanOrEqual(1);
  });

  it('is shipped for Claude: a Claude model counts the banner at 3.5 a sequence, an OpenAI model as o200k_base does', () => {
    const split = splitEscapes(banner.text);
    const stripped = countTokens('o200k_base', split?.stripped ?? '');
    expect(tokenizerForModel('claude-opus-4-1-20250805').count(banner.text)).toBe(Math.round(1.185 * stripped + 3.5 * 77));
    expect(tokenizerForModel('gpt-5-codex').count(banner.text)).toBe(countTokens('o200k_base', banner.text));
  });

  it('counts texts and messages without escapes as before', () => {
    const plain = messages.filter((m) => !m.text.includes('\x1b')).slice(0, 200);
    const [with_, without] = [createTokenizer('o200k_base', CLAUDE_WITH_ESCAPES), createTokenizer('o200k_base', CLAUDE)];
    for (const m of plain) {
      expect(with_.countMessage(m, 'openai')).toBe(without.countMessage(m, 'openai'));
      expect(with_.count(m.text)).toBe(without.count(m.text));
    }
  });

  it('matches the recorded growth of the first 50 calls that add a banner (median −182 tokens without the weight, +3 with it)', () => {
    const residuals = (calibration: typeof CLAUDE): number[] => bannerCallResiduals(messages, createTokenizer('o200k_base', calibration)).slice(0, 50);
    const without = median(residuals(CLAUDE));
    const withRule = median(residuals(CLAUDE_WITH_ESCAPES));
    expect(residuals(CLAUDE).length).toBe(50);
    expect(without).toBeLessThan(-150);
    expect(Math.abs(withRule)).toBeLessThan(30);
  });
});

/**
 * Recorded growth less counted growth between two consecutive calls whose added messages (the
 * earlier call and its tool result) hold the 77-sequence banner; compactions end a pair.
 */
function bannerCallResiduals(messages: readonly ContextMessage[], tokenizer: ReturnType<typeof createTokenizer>): number[] {
  const out: number[] = [];
  let previous: ContextMessage | undefined;
  let added: ContextMessage[] = [];
  for (const m of messages) {
    const input = m.role === 'assistant' ? m.usage?.input : undefined;
    if (input === undefined || input <= 0) {
      if (previous !== undefined) added.push(m);
      continue;
    }
    const escapes = added.reduce((n, a) => n + (splitEscapes(a.text)?.count ?? 0), 0);
    const recordedBefore = previous?.usage?.input;
    if (recordedBefore !== undefined && escapes === 77 && input > recordedBefore) {
      const counted = added.reduce((n, a) => n + tokenizer.countMessage(a, 'openai'), 0);
      out.push(input - recordedBefore - counted);
    }
    previous = m;
    added = [m];
  }
  return out;
}
