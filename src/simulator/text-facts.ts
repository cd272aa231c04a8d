import { detachedCopy, runTextMemo } from '../memo.js';
import type { LineReading, Said, Voice } from './summary-material.js';
import type { Specifics } from './summary-specifics.js';

/**
 * What the summarizer works out from each text and each of its lines, shared by the modules that
 * read them (summary-material.ts, summary-specifics.ts fill their own fields when first needed).
 * Summary requests carry whole spans of history, and the next request most of the same texts; a
 * span sent as one new text (turn-summary.ts, map-reduce.ts) is made of lines read before. So a
 * text is looked up once per request and split once, and a line is read once.
 */
export interface TextFacts {
  readonly lines: readonly LineFacts[];
  /** The text's material as each voice says it (summary-material.ts). */
  said?: Partial<Record<Voice, readonly Said[]>>;
  /** The text's specifics (summary-specifics.ts). */
  specifics?: Specifics;
}

export interface LineFacts {
  /** The line, in a string of its own (see `detached`). */
  readonly text: string;
  reading?: LineReading;
  specifics?: Specifics;
}

/**
 * Texts are kept as they are (a message's text, or a request's new text); lines are slices of
 * them, so they are kept as copies, lest a line keep its whole text alive after the text memo
 * has let it go. The lines memo holds more characters than the texts memo: a text it holds keeps
 * the facts of its lines alive, and a line the lines memo had let go was read again into new facts
 * for every new text holding it (a summary request), its readings computed and held twice (at
 * 8 million characters, the 2,500-step synthetic session through every strategy ran 79–90 s and
 * peaked at 2.0 GB; at 24 million, 68–72 s and 1.6 GB).
 */
const texts = runTextMemo<TextFacts>('text-facts');
const lines = runTextMemo<LineFacts>('line-facts', { copyKeys: true });

/** The facts of `text`: its lines (cut at every `\n`) and whatever was read of it before. */
export function factsOf(text: string): TextFacts {
  return texts.get(text, () => ({ lines: text.split('\n').map((line) => lines.get(line, () => ({ text: detachedCopy(line) }))) }));
}
