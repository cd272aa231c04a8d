/**
 * Where a session showed a phrase in its text, not only as a quoted specific: a later command's
 * `grep "if username is None or password is None"` or `sed 's/priority_arg = 1/…/'` quotes a line
 * of a file a tool printed unquoted, and an agent quotes an error text a tool printed bare. The
 * messages' texts are searched as one, so finding the last earlier sighting of a phrase costs one
 * native search, not one per message.
 */
import { isNameChar } from './specifics.js';

/** Ends each message's text in the joined search text: no phrase holds it, so no match spans two messages. */
const SEPARATOR = '\u0000';

export class SessionText {
  private readonly joined: string;
  /** Where each message's text starts in `joined`, ascending. */
  private readonly starts: readonly number[];

  constructor(texts: readonly string[]) {
    const starts: number[] = [];
    let at = 0;
    for (const text of texts) {
      starts.push(at);
      at += text.length + SEPARATOR.length;
    }
    this.starts = starts;
    this.joined = texts.join(SEPARATOR);
  }

  /**
   * The index of the last message before `before` whose text holds the phrase alone (no name
   * character running into it), or undefined. With `whole`, the phrase must also not run on into
   * more words across a space: `# Main execution` is not in `# Main execution function`.
   */
  lastHolding(phrase: string, before: number, whole = false): number | undefined {
    const end = before < this.starts.length ? (this.starts[before] as number) - 1 : this.joined.length;
    if (end < phrase.length) return undefined;
    for (let at = this.joined.lastIndexOf(phrase, end - phrase.length); at >= 0; at = this.joined.lastIndexOf(phrase, at - 1)) {
      if (standsAlone(this.joined, at, phrase.length, whole)) return this.messageAt(at);
    }
    return undefined;
  }

  /** The index of the first message whose text holds the phrase alone (and `whole`, as above), or undefined. */
  firstHolding(phrase: string, whole = false): number | undefined {
    for (let at = this.joined.indexOf(phrase); at >= 0; at = this.joined.indexOf(phrase, at + 1)) {
      if (standsAlone(this.joined, at, phrase.length, whole)) return this.messageAt(at);
    }
    return undefined;
  }

  private messageAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}

function standsAlone(text: string, at: number, length: number, whole: boolean): boolean {
  const before = text[at - 1];
  const after = text[at + length];
  if (isNameChar(before) || isNameChar(after)) return false;
  return !whole || ((before !== ' ' || !isNameChar(text[at - 2])) && (after !== ' ' || !isNameChar(text[at + length + 1])));
}
