import { createOwnedTextMemo, runWeakMap, type TextMemo } from '../../memo.js';
import type { MessageEvent } from '../../transcript/types.js';
import { messageText } from '../context-text.js';
import { unescapeForTokens } from './specifics.js';

/** Facts are looked up by their first characters: this many, or the whole of a shorter fact. */
const GRAM = 4;
/**
 * Up to this many distinct grams, each is searched for with `indexOf` (one native scan of a text
 * each); beyond, a text is read once, position by position (a log of thousands of facts).
 */
const SEARCHED_GRAMS = 64;

/**
 * The distinct facts of a log's needed uses, searched in message texts: each fact is filed under
 * its first `GRAM` characters, and each gram's occurrences are found by `indexOf` (a few grams) or
 * a text is read once, looking up the characters at each position (many), so finding every fact
 * in a message costs at most its length times a few, not its length × the facts (a log of
 * thousands of needed uses has thousands of facts).
 *
 * What a message holds is found once per message object and text: strategies send the same
 * messages step after step, and every strategy of a scenario shares the transcript's.
 */
export class FactIndex {
  /** The facts (distinct, none empty); a fact's number is its position here. */
  readonly facts: readonly string[];
  private readonly byGram = new Map<string, number[]>();
  /** The first character (UTF-16 code) of each gram: a position starting with another one starts no fact. */
  private readonly gramStarts = new Set<number>();
  /** Facts shorter than `GRAM`, searched one by one. */
  private readonly short: number[] = [];
  private readonly byMessage = runWeakMap<MessageEvent, readonly number[]>();
  private readonly byText: TextMemo<readonly number[]>;

  constructor(facts: readonly string[]) {
    this.facts = facts;
    this.facts.forEach((fact, i) => {
      if (fact.length < GRAM) {
        this.short.push(i);
        return;
      }
      const gram = fact.slice(0, GRAM);
      this.gramStarts.add(gram.charCodeAt(0));
      const list = this.byGram.get(gram);
      if (list === undefined) this.byGram.set(gram, [i]);
      else list.push(i);
    });
    this.byText = createOwnedTextMemo<readonly number[]>('needed-findings');
  }

  /**
   * The facts `message`'s searchable text (context-text.ts `messageText`) holds verbatim, ascending,
   * each once; also those it holds once escapes written out in it (`\n`, `\"`) are read as spaces, as
   * the extraction reads texts (specifics.ts `unescapeForTokens`).
   */
  factsIn(message: MessageEvent): readonly number[] {
    let found = this.byMessage.get(message);
    if (found === undefined) {
      found = this.byText.get(messageText(message), (text) => this.factsInText(text));
      this.byMessage.set(message, found);
    }
    return found;
  }

  /** The facts `text` holds verbatim (or with its escapes as spaces), ascending, each once. */
  factsInText(text: string): readonly number[] {
    const found = new Set<number>();
    this.addFound(text, found);
    const plain = unescapeForTokens(text);
    if (plain !== text) this.addFound(plain, found);
    return [...found].sort((a, b) => a - b);
  }

  private addFound(text: string, found: Set<number>): void {
    if (this.byGram.size > 0 && this.byGram.size <= SEARCHED_GRAMS) this.addFoundByGram(text, found);
    else if (this.byGram.size > 0) this.addFoundByPosition(text, found);
    for (const i of this.short) if (!found.has(i) && text.includes(this.facts[i] as string)) found.add(i);
  }

  /**
   * Each gram's occurrences found by the engine's own search (`indexOf`): a few grams cost a few
   * native scans of the text, where a loop over its positions runs every character through
   * JavaScript, cold in a short run, and cuts a slice at each position whose first character starts
   * a gram (vsla-5f8cbb78: 12 grams, 291 thousand characters, 73 thousand slices).
   */
  private addFoundByGram(text: string, found: Set<number>): void {
    this.byGram.forEach((candidates, gram) => {
      for (let at = text.indexOf(gram); at >= 0; at = text.indexOf(gram, at + 1)) {
        for (const i of candidates) if (!found.has(i) && text.startsWith(this.facts[i] as string, at)) found.add(i);
      }
    });
  }

  /** Every position of the text looked up by its first `GRAM` characters: for many grams, one pass. */
  private addFoundByPosition(text: string, found: Set<number>): void {
    for (let at = 0; at + GRAM <= text.length; at++) {
      if (!this.gramStarts.has(text.charCodeAt(at))) continue;
      const candidates = this.byGram.get(text.slice(at, at + GRAM));
      if (candidates === undefined) continue;
      for (const i of candidates) if (!found.has(i) && text.startsWith(this.facts[i] as string, at)) found.add(i);
    }
  }
}
