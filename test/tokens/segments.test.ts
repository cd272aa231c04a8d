import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { get_encoding } from 'tiktoken';
import { segmentsOf } from '../../src/tokens/segments.js';
import { countTokens } from '../../src/tokens/tokenizer.js';
import { importTranscript } from '../../src/transcript/importers/index.js';

const REAL = new URL('../../fixtures/real/', import.meta.url);

/** Texts where a naive cut after a line break would change the count: the rule must not cut there. */
const tricky = [
  'a\n/b', // `[\r\n/]*` takes the slash with the break
  'x.\n\n/y',
  'x\n \ny', // white space after a break joins the next break
  'x\r\n\r\nY',
  'x\n\u0085y', // NEL and the BOM: white space to one reading of `\s` and not to the other
  'x\n\ufeffy',
  'x\n\u00a0y',
  'x\n\u2028y',
  "it's\n'S\nok",
  'a\n\n\n1234\nb',
  '   \n\tfoo',
  '日本\n語\n',
  ',\n,\n,',
  '!!\n/\n//x',
  // Blanks after a break: a cut before them is exact unless another break follows them.
  'x\n  \n  y',
  'x\n   ',
  'x.\n  /y',
  'x\n\t\ty',
  'x\n \u00a0y',
  'x \n y',
  'x\n \r\ny',
  'x\n \u0085\ny',
  'x\n  \ufeff\n y',
  '\n  a',
  ')\n  \n\n    }\n',
];

describe('segments of a text for counting', () => {
  const encoders = { o200k_base: get_encoding('o200k_base'), cl100k_base: get_encoding('cl100k_base') };
  const whole = (encoding: keyof typeof encoders, text: string) => encoders[encoding].encode(text, [], []).length;
  const summed = (encoding: keyof typeof encoders, text: string) => segmentsOf(text).reduce((n, s) => n + whole(encoding, s), 0);

  it('join back to the text and cut only after line breaks', () => {
    const text = 'first line\nsecond\n\n  indented\n/root\nlast';
    expect(segmentsOf(text)).toEqual(['first line\n', 'second\n\n', '  indented\n/root\n', 'last']);
    // Indented code is cut line by line; blanks between breaks stay with the breaks.
    expect(segmentsOf('if x:\n    y()\n  \n    z()\n')).toEqual(['if x:\n', '    y()\n  \n', '    z()\n']);
    for (const t of tricky) expect(segmentsOf(t.repeat(3)).join('')).toBe(t.repeat(3));
  });

  it.each(['o200k_base', 'cl100k_base'] as const)('sum to the whole-text count in %s, on texts that defeat a naive cut', (encoding) => {
    for (const t of tricky) expect(summed(encoding, t.repeat(3))).toBe(whole(encoding, t.repeat(3)));
  });

  it.each(['o200k_base', 'cl100k_base'] as const)('sum to the whole-text count in %s on real logs, raw and imported', async (encoding) => {
    const files = ['claude-code/vibecoding-session.jsonl', 'codex/vibecoding-session.jsonl', 'gemini-cli/vibecoding-session.jsonl'];
    let segments = 0;
    for (const file of files) {
      const path = new URL(file, REAL);
      // The raw log: JSON with escaped breaks and real ones between records.
      const raw = readFileSync(path, 'utf8');
      expect(summed(encoding, raw)).toBe(whole(encoding, raw));
      const transcript = await importTranscript(path.pathname, {});
      for (const event of transcript.events) {
        if (event.type !== 'message' || event.text.length < 2) continue;
        segments += segmentsOf(event.text).length;
        expect(summed(encoding, event.text)).toBe(whole(encoding, event.text));
      }
    }
    // The logs hold multi-line tool output: cutting did happen.
    expect(segments).toBeGreaterThan(1000);
  });

  it('give countTokens the whole-text count of a long text', () => {
    const text = `${readFileSync(new URL('claude-code/vibecoding-session.jsonl', REAL), 'utf8').slice(0, 20_000)}\n/tail`;
    expect(countTokens('o200k_base', text)).toBe(whole('o200k_base', text));
  });
});
