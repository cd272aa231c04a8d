import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Memos owned by the run. Every memo of ctxbench (text memos, per-object memos, list memos) is a
 * pure cache: it changes what is computed again, never a value. Their tables live in a store, a
 * value each run makes (`createMemoStore`: `runSuite`, a worker thread for the run it serves,
 * `runUnit` and probe generation on their own) with its own switch and budget, and binds to the
 * work it does (`withMemoStore`): what a run calls, however deep and across every `await`, finds
 * that run's store, so two runs in one thread, interleaved or not, each see their own. A module
 * declares its memos (`runTextMemo`, `runWeakMap`, ...); a declaration holds nothing, its table
 * is made in the store of the run that first uses it there. A store made with `enabled: false`
 * (`--no-memo`) makes no table and every value is computed each time; so does any code that runs
 * outside a run. The text memos share one budget of characters (`MEMO_SHARES`).
 */
export interface MemoStore {
  /** False: no memo at all (every value computed each time; the results are the same). */
  readonly enabled: boolean;
  /** How many memo tables the store has made (none when memos are off). */
  readonly tables: number;
  /**
   * Empties the memos that no budget bounds (per-object memos, list memos, maps; each is made again
   * on next use) and keeps the text memos and the per-log memos (`runLogMemo`). A corpus calls it
   * once every strategy has replayed a log (run/execute-unit.ts `runCorpusLog`): per-object memos
   * keyed on a log's messages, which live as long as the run, would otherwise hold what every log
   * computed until the run ends (a 100-log corpus peaked at twice the memory).
   */
  emptyRun(): void;
  /**
   * Bounds the text memos at `scale` times their share of the budget from now on (their values are
   * let go when the scale changes; 1: the whole budget). A corpus's logs run at a sixteenth
   * (run/execute-unit.ts `CORPUS_TEXT_SCALE`): every strategy replays one log while its texts are
   * warm, so the memos need hold one log's texts and what every log uses (the harness's prompts,
   * common lines), not every log's (docs/performance.md, "Log-major corpus execution").
   */
  scaleTextMemos(scale: number): void;
  /** Lets every table go and makes none from now on: the run that made the store has ended. */
  drop(): void;
}

export interface RunMemoOptions {
  /** False: no memo at all (every value computed each time; the results are the same). Default true. */
  enabled?: boolean;
}

/**
 * What a module declares: how its table is made, and which tables a store empties when. `bounded`:
 * a text memo held to its share of the budget; `perLog`: kept when a corpus empties the memos after
 * a log (`emptyRun`, `runLogMemo`).
 */
interface MemoDeclaration<T> {
  create: (store: Store) => T;
  bounded: boolean;
  perLog: boolean;
}

class Store implements MemoStore {
  readonly enabled: boolean;
  /** The share of the budget the text memos have now (`scaleTextMemos`). */
  textScale = 1;
  private dropped = false;
  private readonly held = new Map<MemoDeclaration<unknown>, unknown>();

  constructor(enabled: boolean) {
    this.enabled = enabled;
  }

  /** Whether the store memoizes now: memos on, and its run not ended. */
  get memoizing(): boolean {
    return this.enabled && !this.dropped;
  }

  get tables(): number {
    return this.held.size;
  }

  /** The declaration's table, made on first use; undefined when memos are off. */
  table<T>(declaration: MemoDeclaration<T>): T | undefined {
    if (!this.memoizing) return undefined;
    let value = this.held.get(declaration) as T | undefined;
    if (value === undefined) {
      value = declaration.create(this);
      this.held.set(declaration, value);
    }
    return value;
  }

  /** The declaration's table if the store has made it. */
  peek<T>(declaration: MemoDeclaration<T>): T | undefined {
    return this.held.get(declaration) as T | undefined;
  }

  emptyRun(): void {
    for (const declaration of this.held.keys()) if (!declaration.bounded && !declaration.perLog) this.held.delete(declaration);
  }

  scaleTextMemos(scale: number): void {
    if (scale === this.textScale) return;
    this.textScale = scale;
    for (const declaration of this.held.keys()) if (declaration.bounded) this.held.delete(declaration);
  }

  drop(): void {
    this.held.clear();
    this.dropped = true;
  }
}

/** A new memo store, for one run. */
export function createMemoStore(options: RunMemoOptions = {}): MemoStore {
  return new Store(options.enabled !== false);
}

/**
 * Which store the code running now belongs to: the binding of a run's store to the work it starts
 * (it follows `await`s, timers and callbacks made from there), not a store itself. Set only by
 * `withMemoStore` and `enterMemoStore`.
 */
const boundStore = new AsyncLocalStorage<Store>();

/** Runs `body` with `store` as the store of everything it does, synchronously or not. */
export function withMemoStore<T>(store: MemoStore, body: () => T): T {
  return boundStore.run(store as Store, body);
}

/**
 * Makes `store` the store of the rest of the calling code and of everything it goes on to start
 * (undefined: none), for a host whose work is not one call: a test file's hooks and tests.
 */
export function enterMemoStore(store: MemoStore | undefined): void {
  boundStore.enterWith(store as Store);
}

/** The store of the run the calling code belongs to; undefined outside a run. */
export function currentMemoStore(): MemoStore | undefined {
  return boundStore.getStore();
}

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
 * Runs `body` in the store of the run it belongs to, or, called outside a run (a unit or probe
 * generation on its own, a library caller), in a store of its own that is dropped when `body` ends.
 */
export function withRunMemos<T>(options: RunMemoOptions, body: () => T): T {
  if (currentMemoStore() !== undefined) return body();
  return withOwnMemos(createMemoStore(options), body);
}

/** Runs `body` in `store` (a run's own), dropping every table it made however `body` ends (a promise: once it settles). */
export function withOwnMemos<T>(store: MemoStore, body: () => T): T {
  let result: T;
  try {
    result = withMemoStore(store, body);
  } catch (error) {
    store.drop();
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => store.drop()) as T;
  store.drop();
  return result;
}

/** Whether memos are on now: the code runs in a run whose store has memos enabled. */
export function memosEnabled(): boolean {
  return boundStore.getStore()?.memoizing === true;
}

/**
 * A value owned by the run (a map, a memo): made on first use in each run with memos on, dropped
 * with its store. `undefined` when memos are off or outside a run.
 */
export function runOwned<T>(create: () => T, bounded = false, perLog = false): () => T | undefined {
  const declaration: MemoDeclaration<T> = { create, bounded, perLog };
  return () => boundStore.getStore()?.table(declaration);
}

/** A text memo owned by the run, bounded by its share of the run's budget; computes each time when memos are off. */
export function runTextMemo<V>(name: MemoName, options: TextMemoOptions = {}): TextMemo<V> {
  const declaration: MemoDeclaration<TextMemo<V>> = { create: (store) => createTextMemo<V>(shareOf(name, store), options), bounded: true, perLog: false };
  return {
    get(text, compute) {
      const held = boundStore.getStore()?.table(declaration);
      return held === undefined ? compute(text) : held.get(text, compute);
    },
    get size() {
      return boundStore.getStore()?.peek(declaration)?.size ?? 0;
    },
  };
}

/** A text memo for values of one owner object (a probe list, a count function), bounded by `name`'s share. */
export function createOwnedTextMemo<V>(name: MemoName, options: TextMemoOptions = {}): TextMemo<V> {
  const store = boundStore.getStore();
  if (store?.memoizing !== true) return { get: (text, compute) => compute(text), size: 0 };
  return createTextMemo<V>(shareOf(name, store), options);
}

function shareOf(name: MemoName, store: Store): number {
  return Math.round((MEMO_BUDGET_CHARS * store.textScale * MEMO_SHARES[name]) / SHARE_TOTAL);
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
 * when a corpus empties the memos after a log (`MemoStore.emptyRun`); its values go with the log's
 * objects. Its keys are never a context's messages (a strategy makes new ones each step).
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
