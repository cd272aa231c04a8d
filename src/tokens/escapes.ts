/**
 * Terminal escape sequences (ANSI colours, cursor moves) in a text, which o200k_base counts
 * heavily and a model family's own tokenizer may count otherwise. A coloured shell banner
 * (`\x1b[0;36m…\x1b[0m`) costs o200k_base 4–6 tokens a sequence, with the merges it breaks in
 * the text around it; the recorded usage of Claude Code logs implies about 3 (docs/fidelity.md,
 * "Terminal escape sequences"). So a family may weigh each sequence on its own
 * (`Calibration.perEscape`): the text is counted without its sequences, and each sequence adds
 * the weight.
 */

/**
 * A sequence as terminals read it: CSI (`ESC [` parameters, intermediates, a final byte: colours,
 * cursor moves, erases), OSC (`ESC ]` … BEL or `ESC \`: titles, hyperlinks), or ESC and one
 * more character (the other two-byte escapes). A lone ESC at the end is a sequence too.
 */
// eslint-disable-next-line no-control-regex -- terminal control characters are what it matches
const ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[\s\S]?)/g;

/** A text's escape sequences: how many, and the text without them. */
export interface EscapeSplit {
  count: number;
  stripped: string;
}

/** The escape sequences of `text`, or undefined when it has none (most texts: then nothing changes). */
export function splitEscapes(text: string): EscapeSplit | undefined {
  if (!text.includes('\x1b')) return undefined;
  let count = 0;
  const stripped = text.replace(ESCAPE, () => {
    count += 1;
    return '';
  });
  return { count, stripped };
}
