/**
 * A memo of values computed from texts (pure functions of the text: a split, a term index, a
 * count), bounded by the characters of the texts it holds: past `maxChars` it starts over. A bound
 * on the number of entries did not bound memory on long sessions, where strategies make new long
 * texts all along (summary requests, cut results) and an entry's index grows with its text.
 * Starting over changes no value, only what is computed again.
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

export function createTextMemo<V>(maxChars: number, options: TextMemoOptions = {}): TextMemo<V> {
  const entries = new Map<string, V>();
  let chars = 0;
  return {
    get(text, compute) {
      const known = entries.get(text);
      if (known !== undefined || entries.has(text)) return known as V;
      const value = compute(text);
      if (chars + text.length > maxChars) {
        entries.clear();
        chars = 0;
      }
      entries.set(options.copyKeys === true ? Buffer.from(text, 'utf8').toString('utf8') : text, value);
      chars += text.length;
      return value;
    },
    get size() {
      return entries.size;
    },
  };
}
