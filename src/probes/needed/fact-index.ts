import { createOwnedTextMemo, runWeakMap, type TextMemo } from '../../memo.js';
import type { MessageEvent } from '../../transcript/types.js';
import { messageText } from '../context-text.js';
import { unescapeForTokens } from './specifics.js';

/** Facts are looked up by their first characters: this many, or the whole of a shorter fact. */
const GRAM = 4;

/**
 * Strings searched verbatim in texts in one pass: each is filed under its first `GRAM` characters,
 * and a text is read once, looking up the characters at each position, so finding every one of
 * them in a text costs its length, not its length × their number (a log of thousands of needed
 * uses has thousands of facts, a long session hundreds of paths).
 */
export class VerbatimMatcher {
  /** The strings (none empty); a string's number is its position here. */
  readonly values: readonly string[];
  private readonly byGram = new Map<string, number[]>();
  /**
   * The first two characters (UTF-16 codes, as one number) of each gram: a position starting with
   * another pair starts no string, and is passed without a slice and a lookup (most positions of
   * a text start with a letter some string starts with, few with a pair).
   */
  private readonly gramStarts = new Set<number>();
  /** Strings shorter than `GRAM`, searched one by one. */
  private readonly short: number[] = [];

  constructor(values: readonly string[]) {
    this.values = values;
    values.forEach((value, i) => {
      if (value.length < GRAM) {
        this.short.push(i);
        return;
      }
      const gram = value.slice(0, GRAM);
      this.gramStarts.add(pairAt(gram, 0));
      const list = this.byGram.get(gram);
      if (list === undefined) this.byGram.set(gram, [i]);
      else list.push(i);
    });
  }

  /** Adds to `found` the number of each string `text` holds. */
  addFound(text: string, found: Set<number>): void {
    if (this.byGram.size > 0) {
      for (let at = 0; at + GRAM <= text.length; at++) {
        if (!this.gramStarts.has(pairAt(text, at))) continue;
        const candidates = this.byGram.get(text.slice(at, at + GRAM));
        if (candidates === undefined) continue;
        for (const i of candidates) if (!found.has(i) && text.startsWith(this.values[i] as string, at)) found.add(i);
      }
    }
    for (const i of this.short) if (!found.has(i) && text.includes(this.values[i] as string)) found.add(i);
  }
}

/** The UTF-16 codes of `text`'s characters at `at` and `at + 1`, as one number. */
function pairAt(text: string, at: number): number {
  return text.charCodeAt(at) * 0x10000 + text.charCodeAt(at + 1);
}

/**
 * The distinct facts of a log's needed uses, searched in message texts in one pass (`VerbatimMatcher`).
 * What a message holds is found once per message object and text: strategies send the same
 * messages step after step, and every strategy of a scenario shares the transcript's.
 */
export class FactIndex {
  /** The facts (distinct, none empty); a fact's number is its position here. */
  readonly facts: readonly string[];
  private readonly matcher: VerbatimMatcher;
  private readonly byMessage = runWeakMap<MessageEvent, readonly number[]>();
  private readonly byText: TextMemo<readonly number[]>;

  constructor(facts: readonly string[]) {
    this.facts = facts;
    this.matcher = new VerbatimMatcher(facts);
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
    this.matcher.addFound(text, found);
    const plain = unescapeForTokens(text);
    if (plain !== text) this.matcher.addFound(plain, found);
    return [...found].sort((a, b) => a - b);
  }
}
