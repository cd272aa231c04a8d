import { runWeakMap } from '../memo.js';
import type { ContextMessage, MessageEvent } from '../transcript/types.js';
import { diffFrom, type ContextDiff } from '../transcript/context-diff.js';
import type { Archive } from '../strategies/types.js';
import { mayNameRef, readChunks, refHolding, refsNamedBy, refsOffered } from './ref-reads.js';
import { NeededMeter, type NeededSet, type Recovery } from '../probes/needed/measure.js';

/**
 * Follow-up reads: what a strategy made the agent fetch back. A strategy that replaces tool output
 * by a reference, a preview or a cut saves tokens on the assumption that the agent never needs the
 * rest. When the recorded completion of a step does need it, the agent could not have written that
 * completion from the context it was sent; a real agent would first fetch the output back (follow
 * the ref or the retrieval hint, or run the tool again), and pay for it.
 *
 * Detection. A step *uses* a line of earlier tool output when its completion
 * - edits it: a line of an edit argument (`old_string`, `old_str`, `search`, `patch`, `diff`, …,
 *   also inside `edits: [...]`) is a line of an earlier tool result (a `cat -n` / `12→` line-number
 *   prefix ignored), or
 * - quotes it: a line of the completion's text is a line of an earlier tool result.
 * Only lines of `MIN_LINE_CHARS` or more count, so `}` or `return x;` match nothing. The line is
 * *missing* when no message of the context sent holds it: neither a tool result that held it (as
 * sent, possibly cut) nor a message the strategy wrote (a summary, a preview). Then the newest tool
 * result that held it is fetched whole — what following a ref or re-running the read returns —
 * and appended to the step's prompt, so its tokens count in the prompt, the quota and the window.
 * Re-reading a file is not charged: the re-read is in the transcript and every strategy pays it.
 *
 * Reads through a ref (ref-reads.ts). When the context sent offers a retrieval hint to the missing
 * output (a scratchpad ref, an archive key), the agent reads it through the ref: only the chunks
 * holding the lines it needs are fetched (`read_chunk`). A completion that names an offered
 * `ref:` key reads that ref whole. Each output is fetched once per step, whichever way.
 *
 * Needed facts (probes/needed/measure.ts, when the scenario has them). A use at this step whose
 * fact the context holds nowhere, not even in a summary, but leads back to (`recovery` in
 * needed.csv) is read back the same way: its source output (through a ref holding it when one is
 * offered, else whole, as re-running the read or the command returns it), or the chunk of the ref
 * a retrieval hint offers that holds it.
 */

/** Shorter lines are too common to tell where they came from. */
const MIN_LINE_CHARS = 24;
/** Arguments that carry text the agent copied from what it read. */
const EDIT_ARGUMENT = /^(?:old_?str(?:ing)?|oldString|old_?text|search|find|original|patch|diff|input|edits)$/i;
/** A line-number prefix as read tools print it: `    12\t`, `    12→`, `12: `, `12 | `. */
const LINE_NUMBER = /^\s*\d+(?:\t|→|: | \| )/;

interface FollowUpFetch {
  /** The message appended to the context: the fetched tool results. */
  message: ContextMessage;
  /** Ids of the tool results fetched. */
  sources: string[];
}

export interface FollowUpTracker {
  /** Indexes a transcript message once the replay has passed it. */
  observe(message: MessageEvent): void;
  /**
   * What the completion needs that the context sent (`diff.after`, the step's diff from the
   * context of the last check) lacks, fetched; undefined when nothing is missing.
   */
  check(diff: ContextDiff, completion: MessageEvent, step: number): FollowUpFetch | undefined;
}

function normaliseLine(line: string): string {
  return line.replace(LINE_NUMBER, '').trim();
}

function usefulLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map(normaliseLine)
    .filter((line) => line.length >= MIN_LINE_CHARS && /\p{L}/u.test(line));
}

/** The string values of edit arguments, nested ones included (`edits: [{old_string}]`). */
function editTexts(value: unknown, key: string, inEdit: boolean): string[] {
  const isEdit = inEdit || EDIT_ARGUMENT.test(key);
  if (typeof value === 'string') return isEdit && !/^new|replace/i.test(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => editTexts(item, key, isEdit));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => editTexts(v, k, isEdit && !/^new|replace/i.test(k)));
  return [];
}

/**
 * The lines a completion takes from what it read: edit arguments and its own text. Found once per
 * completion: every strategy replays the same recorded message.
 */
function linesUsedBy(completion: MessageEvent): readonly string[] {
  let lines = linesUsed.get(completion);
  if (lines === undefined) {
    lines = readLinesUsedBy(completion);
    linesUsed.set(completion, lines);
  }
  return lines;
}

const linesUsed = runWeakMap<MessageEvent, readonly string[]>();

function readLinesUsedBy(completion: MessageEvent): string[] {
  const fromEdits = (completion.toolCalls ?? []).flatMap((call) => Object.entries(call.args).flatMap(([key, value]) => editTexts(value, key, false)));
  return [...new Set([...fromEdits.flatMap(usefulLines), ...usefulLines(completion.text)])];
}

/**
 * The useful lines of the tool results a replay observed, indexed once for every unit that replays
 * the same transcript: each unit of a scenario observes the same message objects in the same
 * order, and indexing every line of every result again per unit was most of its follow-up cost.
 */
interface LineIndex {
  /** The tool results indexed, in the order observed. */
  readonly results: MessageEvent[];
  /** Each useful line → the positions in `results` of the results that held it, ascending. */
  readonly holders: Map<string, number[]>;
}

// Keyed by the first tool result observed; a tracker that observes something else than the index
// holds at its position goes on with an index of its own.
const sharedIndexes = runWeakMap<MessageEvent, LineIndex>();

function indexResult(index: LineIndex, message: MessageEvent): void {
  const position = index.results.length;
  index.results.push(message);
  for (const line of new Set(usefulLines(message.text))) {
    const list = index.holders.get(line);
    if (list === undefined) index.holders.set(line, [position]);
    else list.push(position);
  }
}

/** An index of the first `count` results of `index`, for a tracker that parts from it. */
function indexOfFirst(index: LineIndex, count: number): LineIndex {
  const own: LineIndex = { results: [], holders: new Map() };
  for (const message of index.results.slice(0, count)) indexResult(own, message);
  return own;
}

/**
 * The context of the last check, by id, and the messages the strategy wrote in it, kept along the
 * step's diff: a check costs what the context changed, not a pass over it.
 */
class SentIndex {
  private held: readonly ContextMessage[] = [];
  /** Each id → the messages of `held` with it (one, but for a context that sends an id twice). */
  private readonly byId = new Map<string, ContextMessage[]>();
  /** The messages the strategy wrote in `held`, each with how often `held` holds it. */
  private readonly written = new Map<ContextMessage, number>();

  update(diff: ContextDiff): void {
    const { before, after, changes } = diffFrom(this.held, diff);
    for (const { from, removed } of changes) for (let k = from; k < from + removed; k++) this.remove(before[k] as ContextMessage);
    for (const { to, added } of changes) for (let k = to; k < to + added; k++) this.add(after[k] as ContextMessage);
    this.held = after;
  }

  /** The last message of the context with `id` (what a map of the context by id holds). */
  sent(id: string): ContextMessage | undefined {
    const messages = this.byId.get(id);
    if (messages === undefined || messages.length === 1) return messages?.[0];
    return this.held.findLast((message) => message.id === id);
  }

  /** Whether a message the strategy wrote satisfies `test` (a pure test: the order they are tried in does not matter). */
  someWritten(test: (message: ContextMessage) => boolean): boolean {
    for (const message of this.written.keys()) if (test(message)) return true;
    return false;
  }

  private add(message: ContextMessage): void {
    const messages = this.byId.get(message.id);
    if (messages === undefined) this.byId.set(message.id, [message]);
    else messages.push(message);
    if (message.synthetic !== undefined) this.written.set(message, (this.written.get(message) ?? 0) + 1);
  }

  private remove(message: ContextMessage): void {
    const messages = this.byId.get(message.id) as ContextMessage[];
    messages.splice(messages.lastIndexOf(message), 1);
    if (messages.length === 0) this.byId.delete(message.id);
    if (message.synthetic === undefined) return;
    const count = this.written.get(message) as number;
    if (count === 1) this.written.delete(message);
    else this.written.set(message, count - 1);
  }
}

const NO_ARCHIVE: Pick<Archive, 'get' | 'lookup'> = { get: () => undefined, lookup: () => undefined };

/**
 * `archive`: where retrieval hints lead; without it every fetch re-reads the whole output.
 * `needed`: the transcript's needed uses, whose recoverable facts are read back too.
 */
export function createFollowUpTracker(archive?: Pick<Archive, 'get' | 'lookup'>, needed?: NeededSet): FollowUpTracker {
  const neededMeter = needed === undefined ? undefined : new NeededMeter(needed);
  /** The tool results observed: the first `observed` of `index`. */
  let index: LineIndex | undefined;
  let observed = 0;
  const results = new Map<string, MessageEvent>();
  const sentIndex = new SentIndex();
  /** The ids of the tool results observed that held `line`, oldest first (none: an empty list). */
  const holdersOf = (line: string): string[] => {
    const positions = index?.holders.get(line);
    if (index === undefined || positions === undefined) return [];
    const ids: string[] = [];
    for (const position of positions) {
      if (position >= observed) break;
      ids.push((index.results[position] as MessageEvent).id);
    }
    return ids;
  };
  const holds = (line: string): boolean => {
    const first = index?.holders.get(line)?.[0];
    return first !== undefined && first < observed;
  };
  return {
    observe(message) {
      if (message.role !== 'tool') return;
      results.set(message.id, message);
      if (index === undefined) {
        index = sharedIndexes.get(message) ?? { results: [], holders: new Map() };
        sharedIndexes.set(message, index);
      }
      if (observed < index.results.length) {
        if (index.results[observed] === message) {
          observed += 1;
          return;
        }
        index = indexOfFirst(index, observed);
      }
      indexResult(index, message);
      observed += 1;
    },
    check(diff, completion, step) {
      // Kept at every check, so that the next costs only what its step changed.
      sentIndex.update(diff);
      const context = diff.after;
      // The refs offered are looked up only when a fetch may go through one: most steps need nothing.
      let refs: Map<string, MessageEvent[]> | undefined;
      const offered = (): Map<string, MessageEvent[]> => (refs ??= archive === undefined ? new Map<string, MessageEvent[]>() : refsOffered(context, archive));
      const named = mayNameRef(completion) ? refsNamedBy(completion, offered()) : [];
      const wanted = linesUsedBy(completion).filter(holds);
      const neededReads = neededMeter?.reads(step, diff, archive ?? NO_ARCHIVE) ?? [];
      if (wanted.length === 0 && named.length === 0 && neededReads.length === 0) return undefined;
      // Each missing output → the lines of it the completion needs.
      const missing = new Map<string, string[]>();
      for (const line of wanted) {
        const ids = holdersOf(line);
        const isSent = ids.some((id) => sentIndex.sent(id)?.text.includes(line) === true) || sentIndex.someWritten((m) => m.text.includes(line));
        const newest = ids[ids.length - 1];
        if (!isSent && newest !== undefined) missing.set(newest, [...(missing.get(newest) ?? []), line]);
      }
      const refReads = addNeededReads(neededReads, missing, (id) => results.has(id));
      const parts: string[] = [];
      const sources: string[] = [];
      for (const key of named) {
        const messages = offered().get(key) ?? [];
        parts.push(`read_ref ${key}:\n${messages.map((m) => m.text).join('\n')}`);
        for (const m of messages) if (!sources.includes(m.id)) sources.push(m.id);
      }
      for (const [key, { messages, facts }] of refReads) {
        if (named.includes(key)) continue;
        parts.push(readChunks(key, messages.map((m) => m.text).join('\n'), facts));
        for (const m of messages) if (!sources.includes(m.id)) sources.push(m.id);
      }
      for (const [id, lines] of missing) {
        if (sources.includes(id)) continue;
        const key = refHolding(offered(), id);
        const text = results.get(id)?.text ?? '';
        parts.push(key === undefined ? `Fetched back (${id}):\n${text}` : readChunks(key, text, lines));
        sources.push(id);
      }
      if (parts.length === 0) return undefined;
      return { message: { type: 'message', id: `follow-up:${step}`, role: 'user', text: parts.join('\n\n'), synthetic: 'retrieval' }, sources };
    },
  };
}

/**
 * Files the needed reads of a step: an output to fetch joins `missing` (its fact as one more text
 * to find the chunk of); a ref to read is returned with the facts to find in it, once per key.
 */
function addNeededReads(
  reads: readonly { fact: string; recovery: Recovery }[],
  missing: Map<string, string[]>,
  isObserved: (id: string) => boolean,
): Map<string, { messages: readonly MessageEvent[]; facts: string[] }> {
  const refs = new Map<string, { messages: readonly MessageEvent[]; facts: string[] }>();
  for (const { fact, recovery } of reads) {
    if (recovery.via === 'output') {
      if (isObserved(recovery.id)) missing.set(recovery.id, [...(missing.get(recovery.id) ?? []), fact]);
      continue;
    }
    const ref = refs.get(recovery.key) ?? { messages: recovery.messages, facts: [] };
    ref.facts.push(fact);
    refs.set(recovery.key, ref);
  }
  return refs;
}
