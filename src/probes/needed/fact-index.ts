import { createOwnedTextMemo, runWeakMap, type TextMemo } from '../../memo.js';
import type { MessageEvent } from '../../transcript/types.js';
import { messageText } from '../context-text.js';
import { unescapeForTokens } from './specifics.js';

/** Facts are looked up by their first characters: this many, or the whole of a shorter fact. */
const GRAM = 4;

/**
 * The distinct facts of a log's needed uses, searched in message texts in one pass: each fact is
 * filed under its first `GRAM` characters, and a text is read once, looking up the characters at
 * each position, so finding every fact in a message costs its length, not its length × the facts
 * (a log of thousands of needed uses has thousands of facts).
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
    if (this.byGram.size > 0) {
      for (let at = 0; at + GRAM <= text.length; at++) {
        if (!this.gramStarts.has(text.charCodeAt(at))) continue;
        const candidates = this.byGram.get(text.slice(at, at + GRAM));
        if (candidates === undefined) continue;
        for (const i of candidates) if (!found.has(i) && text.startsWith(this.facts[i] as string, at)) found.add(i);
      }
    }
    for (const i of this.short) if (!found.has(i) && text.includes(this.facts[i] as string)) found.add(i);
  }
}
