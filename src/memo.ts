/**
 * A memo of values computed from texts (pure functions of the text: a split, a term index, a
 * count), bounded by the characters of the texts it holds. It keeps two generations of at most
 * half `maxChars` each: texts are added to the current one; when it is full it becomes the
 * previous one and the one before is let go; a text found only in the previous generation is
 * moved back into the current one without being computed again. So it holds at most `maxChars`
 * characters, and what was used since the last turn-over survives it (a recency bound, as an LRU,
 * at the cost of a second map lookup on a miss in the current generation). A bound on the number of entries did not bound memory on long
 * sessions, where strategies make new long texts all along (summary requests, cut results) and an
 * entry's index grows with its text; starting over at the bound made a long session compute its
 * working set again at every turn-over (ten times in 2,500 synthetic steps for the summarizer's
 * texts). Turning over changes no value, only what is computed again.
 */
export interface TextMemo<V> {
  get(text: string, compute: (text: string) => V): V;
  /** Entries held now (tests hold the bound). */
  readonly size: number;
}

export interface TextMemoOptions {
  /**
   * Store a copy of each text rather than the text given: a key cut from a longer text (a slice)
   * would keep the whole of that text alive for as long as the memo holds it.
   */
  copyKeys?: boolean;
}

/** Stands for a computed `undefined` in the maps, so that a miss is one lookup per generation, not two. */
const UNDEFINED = Symbol('undefined');

export function createTextMemo<V>(maxChars: number, options: TextMemoOptions = {}): TextMemo<V> {
  type Stored = V | typeof UNDEFINED;
  let current = new Map<string, Stored>();
  let previous = new Map<string, Stored>();
  let chars = 0;
  const generation = maxChars / 2;
  const copyKeys = options.copyKeys === true;
  return {
    get(text, compute) {
      const known = current.get(text);
      if (known !== undefined) return (known === UNDEFINED ? undefined : known) as V;
      const kept = previous.get(text);
      const stored: Stored = kept !== undefined ? kept : (compute(text) ?? UNDEFINED);
      if (chars + text.length > generation) {
        previous = current;
        current = new Map();
        chars = 0;
      }
      current.set(copyKeys ? detachedCopy(text) : text, stored);
      chars += text.length;
      return (stored === UNDEFINED ? undefined : stored) as V;
    },
    get size() {
      return current.size + previous.size;
    },
  };
}

/**
 * `text` in a string of its own: a slice would keep the whole string it was cut from alive. The
 * concatenation is flattened into a new string by the slice (no lossy UTF-8 round trip: a lone
 * surrogate stays as it is, so the copy is found again by the text it was made from).
 */
export function detachedCopy(text: string): string {
  return ` ${text}`.slice(1);
}
