/**
 * Memos owned by the run. Every memo of ctxbench (text memos, per-object memos, list memos) is a
 * pure cache: it changes what is computed again, never a value. They live in one store that the
 * run opens (`openRunMemos`: `runSuite`, `runUnit`, probe generation) and that is dropped when the
 * last run open in this thread ends, so a host process that calls the library holds none of them
 * between runs. Runs open at once in one thread share the store (their values are the same). A run
 * opened with `enabled: false` (`--no-memo`) computes everything each time; so does any code that
 * runs outside a run. The text memos share one budget of characters (`MEMO_SHARES`).
 */
interface MemoOwner {
  enabled: boolean;
  /** Runs holding the store open. */
  users: number;
}

export interface RunMemoOptions {
  /** False: no memo at all (every value computed each time; the results are the same). Default true. */
  enabled?: boolean;
}

let owner: MemoOwner | undefined;
/**
 * Run-owned memos, each emptied when the store is dropped; `bounded`: a text memo held to its share
 * of the budget; `perLog`: kept when a corpus unit empties the memos between logs (`runLogMemo`).
 */
const dropHooks: { drop: () => void; bounded: boolean; perLog?: boolean }[] = [];

/**
 * Each text memo's share of the budget, in millions of characters: the bounds the memos had when
 * each kept its own (token counts and their segments are read by every strategy at every step).
 */
const MEMO_SHARES = {
  'token-counts': 32 * 1.048576,
  'token-segments': 32 * 1.048576,
  'text-facts': 16,
  'line-facts': 24,
  'summary-paraphrases': 8,
  'summary-line-counts': 4,
  'simulator-terms': 2,
  'passage-terms': 4,
  'passage-texts': 8,
  'retrieval-line-words': 8,
  'question-terms': 8,
  'strategy-hints': 8,
  'probe-findings': 8,
  'needed-findings': 4,
  'secret-spans': 2,
} as const;
type MemoName = keyof typeof MEMO_SHARES;
const SHARE_TOTAL = Object.values(MEMO_SHARES).reduce((a, b) => a + b, 0);
/** The default budget: about 190 million characters over every text memo (up to twice that in bytes). */
const MEMO_BUDGET_CHARS = Math.round(SHARE_TOTAL * 1_000_000);

/**
 * Opens the run's memo store (or joins the one open: its switch stays as the first run set it) and
 * returns the function that closes it; the store is dropped when the last run closes.
 */
export function openRunMemos(options: RunMemoOptions = {}): () => void {
  const held = (owner ??= { enabled: options.enabled !== false, users: 0 });
  held.users += 1;
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    held.users -= 1;
    if (held.users > 0 || owner !== held) return;
    owner = undefined;
    textScale = 1;
    for (const hook of dropHooks) hook.drop();
  };
}

/**
 * Empties the open store's memos that no budget bounds (per-object memos, list memos, maps; each
 * is made again on next use) and keeps its text memos; the run stays open. A corpus unit calls it
 * between logs (run/execute-unit.ts): per-object memos keyed on a log's messages, which live as
 * long as the run, would otherwise hold what every log computed until the run ends (a 100-log
 * corpus peaked at twice the memory), while the text memos, bounded, are what the next strategy
 * over the same log reads again (token counts).
 */
export function emptyRunMemos(): void {
  if (owner === undefined) return;
  for (const hook of dropHooks) if (!hook.bounded && hook.perLog !== true) hook.drop();
}

/**
 * Whether texts of `chars` characters in all stay in the token-count memo (its newer generation)
 * while everything else a run reads passes through it: a strategy over a corpus of more finds none
 * of a log's counts left when it comes back to the log after the other logs.
 */
export function textMemosHold(chars: number): boolean {
  return chars <= (MEMO_BUDGET_CHARS * MEMO_SHARES['token-counts']) / SHARE_TOTAL / 2;
}

/** The share of the budget the text memos have now (`scaleTextMemos`). */
let textScale = 1;

/**
 * Bounds the open store's text memos at `scale` times their share of the budget from now on (their
 * values are let go when the scale changes; 1: the whole budget). A corpus larger than the memos
 * hold (`textMemosHold`) runs at a quarter: no strategy finds a log's texts left when it comes
 * back to the log after the others, so a full budget only held memory (477 logs × 2 strategies:
 * 1,452 MiB peak, 1,044 MiB at a quarter, 5 % less CPU); what a smaller one keeps is what every
 * log uses (the harness's prompts, common lines), which emptying them between logs lost (584 MiB
 * but 15 % more CPU). Dropped with the store.
 */
export function scaleTextMemos(scale: number): void {
  if (owner === undefined || scale === textScale) return;
  textScale = scale;
  for (const hook of dropHooks) if (hook.bounded) hook.drop();
}

/** Runs `body` with the run's memo store open, closing it however `body` ends. */
export async function withRunMemos<T>(options: RunMemoOptions, body: () => Promise<T>): Promise<T> {
  const close = openRunMemos(options);
  try {
    return await body();
  } finally {
    close();
  }
}

/** Whether memos are on now: a run is open in this thread with memos enabled. */
export function memosEnabled(): boolean {
  return owner?.enabled === true;
}

/**
 * A value owned by the run (a map, a memo): made on first use while a run with memos is open,
 * dropped with the store. `undefined` when memos are off.
 */
export function runOwned<T>(create: () => T, bounded = false, perLog = false): () => T | undefined {
  let value: T | undefined;
  let made = false;
  dropHooks.push({
    drop: () => {
      value = undefined;
      made = false;
    },
    bounded,
    perLog,
  });
  return () => {
    if (owner?.enabled !== true) return undefined;
    if (!made) {
      value = create();
      made = true;
    }
    return value;
  };
}

/** A text memo owned by the run, bounded by its share of the run's budget; computes each time when memos are off. */
export function runTextMemo<V>(name: MemoName, options: TextMemoOptions = {}): TextMemo<V> {
  const memo = runOwned(() => createTextMemo<V>(shareOf(name), options), true);
  return {
    get(text, compute) {
      const held = memo();
      return held === undefined ? compute(text) : held.get(text, compute);
    },
    get size() {
      return memo()?.size ?? 0;
    },
  };
}

/** A text memo for values of one owner object (a probe list, a count function), bounded by `name`'s share. */
export function createOwnedTextMemo<V>(name: MemoName, options: TextMemoOptions = {}): TextMemo<V> {
  if (!memosEnabled()) return { get: (text, compute) => compute(text), size: 0 };
  return createTextMemo<V>(shareOf(name), options);
}

function shareOf(name: MemoName): number {
  return Math.round((MEMO_BUDGET_CHARS * textScale * MEMO_SHARES[name]) / SHARE_TOTAL);
}

/** The WeakMap operations memos use. */
interface ObjectMemo<K extends WeakKey, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  has(key: K): boolean;
}

/** A per-object memo owned by the run: a WeakMap while memos are on, empty (nothing kept) when off. */
export function runWeakMap<K extends WeakKey, V>(): ObjectMemo<K, V> {
  return objectMemo(runOwned(() => new WeakMap<K, V>()));
}

/**
 * A per-object memo of what every strategy over a log computes again from the log's own objects
 * (its transcript, its probe set), each value small beside the log: unlike `runWeakMap` it is kept
 * when a corpus unit empties the memos between logs (`emptyRunMemos`), so the next strategy over
 * the log finds it. Its keys are never a context's messages (a strategy makes new ones each step).
 */
export function runLogMemo<K extends WeakKey, V>(): ObjectMemo<K, V> {
  return objectMemo(runOwned(() => new WeakMap<K, V>(), false, true));
}

function objectMemo<K extends WeakKey, V>(map: () => WeakMap<K, V> | undefined): ObjectMemo<K, V> {
  return {
    get: (key) => map()?.get(key),
    set: (key, value) => void map()?.set(key, value),
    has: (key) => map()?.has(key) ?? false,
  };
}

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

/**
 * Per-item values of lists that change little from one call to the next: a step's context is
 * mostly the previous step's message objects in the same order. The step loop's own work goes
 * along the step's diff (transcript/context-diff.ts); this memo serves the code no step diff
 * reaches: what strategies compute on their own lists, and the simulator, which reads requests. The memo remembers the last few
 * lists it mapped (as copies: callers append to their own arrays) and, for a new list, reuses the
 * values of the longest run of identical leading items it shares with one of them, computing only
 * the rest. Items must never change once built (messages never do), and `f` must depend on the
 * item only (a memo per tokenizer, per format, and so on). With memos off (memo.ts) every call
 * maps the whole list.
 */
export interface ListMemo<T, V> {
  /** `items.map(f)`, as a new array the caller may change (the values themselves are shared). */
  map(items: readonly T[], f: (item: T) => V): V[];
  /**
   * The same values without the copy: the memo's own array, of which only the first
   * `items.length` are `items`' (it may hold more). Read it before the next call; never change it.
   */
  values(items: readonly T[], f: (item: T) => V): readonly V[];
}

/** How many lists a memo remembers: a strategy, the simulator and the probes each pass their own. */
const LISTS = 4;

export function createListMemo<T, V>(): ListMemo<T, V> {
  const lists: { items: T[]; values: V[] }[] = [];
  const values = (items: readonly T[], f: (item: T) => V): readonly V[] => {
    if (!memosEnabled()) return items.map(f);
    let best = -1;
    let shared = 0;
    // Most recently used first; a list that holds all of `items`, or that `items` extends, is the one.
    for (const [index, list] of lists.entries()) {
      const limit = Math.min(list.items.length, items.length);
      let k = 0;
      while (k < limit && list.items[k] === items[k]) k += 1;
      if (k > shared || best < 0) [best, shared] = [index, k];
      if (k === limit) break;
    }
    const base = best < 0 ? undefined : lists[best];
    if (base !== undefined && shared === items.length) {
      if (best > 0) lists.unshift(...lists.splice(best, 1));
      return base.values;
    }
    // Extend a remembered list in place when the call only appends to it; else start a new one.
    const extend = shared === base?.items.length;
    const list = extend ? base : { items: items.slice(0, shared), values: base === undefined ? [] : base.values.slice(0, shared) };
    for (let i = shared; i < items.length; i++) {
      const item = items[i] as T;
      list.items.push(item);
      list.values.push(f(item));
    }
    if (extend) lists.splice(best, 1);
    lists.unshift(list);
    if (lists.length > LISTS) lists.pop();
    return list.values;
  };
  return {
    values,
    map: (items, f) => values(items, f).slice(0, items.length),
  };
}

/**
 * The positions of the items `test` holds for (`test` depends on the item only), read from a list
 * memo: a history that grew by a message is tested at that message only.
 */
export function createPositionsMemo<T>(test: (item: T) => boolean): (items: readonly T[]) => number[] {
  // Module-level positions memos hold lists of messages: owned by the run, dropped with it.
  const memo = runOwned(() => createListMemo<T, boolean>());
  return (items) => {
    const holds = memo()?.values(items, test) ?? items.map(test);
    const positions: number[] = [];
    for (let i = 0; i < items.length; i++) if (holds[i] === true) positions.push(i);
    return positions;
  };
}
