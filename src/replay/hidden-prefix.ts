import { runLogMemo } from '../memo.js';
import type { CompactionEvent, Transcript, TranscriptEvent } from '../transcript/types.js';
import type { ProviderName } from '../contracts/provider.js';
import type { Tokenizer } from '../tokens/types.js';
import type { HiddenPrefix } from '../tokens/hidden-tokens.js';
import { carriedReasoningTokens, eventOrder, NO_HIDDEN_PREFIX, unloggedTailTokens } from '../tokens/hidden-tokens.js';
import { applyRecorded } from '../strategies/recorded.js';
import { createHistory } from '../strategies/helpers/history.js';
import { median } from '../stats.js';
import { resetSteps, unloggedBySteps, unloggedInContext, withResets, type UsageStep } from './unlogged.js';

/**
 * How many first steps with recorded usage estimate a hidden prefix. Early contexts are small, so
 * `recorded − computed` there is mostly what the log does not hold (the agent's system prompt and
 * tool schemas) and little tokenizer mismatch; the median of three shrugs off one odd step.
 */
export const OFFSET_STEPS = 3;

/**
 * Estimates a log's hidden prefix from its recorded usage: the median of `recorded − computed`
 * over the first OFFSET_STEPS steps, where `computed` is what `recorded` sends (the log's messages,
 * its own compactions followed, the current turn's reasoning), counted with `tokenizer` — so the
 * estimate is in the same (calibrated) units as every other count. The same estimate over the
 * first steps after each recorded compaction, less the prefix, is what the agent re-attached with
 * its summary. Content the agent appended to a message without logging it (unlogged.ts) is found
 * from the jumps of the recorded usage, charged with that message, and left out of both
 * estimates. Where the agent rebuilt its context from its log (a fall of the recorded input,
 * unlogged.ts `resetSteps`), the prefix is measured anew over the first steps after it, with
 * nothing unlogged carried over and the texts the importer rebuilt for earlier messages left out
 * (`rebuilt`, by the last message added before it). Never negative: a log cannot have sent less
 * than it holds. 0 (`none`) without usage.
 */
function estimateHiddenPrefix(transcript: Transcript, tokenizer: Tokenizer, format: ProviderName): HiddenPrefix {
  const { steps, compactionIds, order } = usageSteps(transcript, tokenizer, format);
  const resets = resetSteps(steps);
  const split = withResets(steps, resets);
  // A generator's usage (≈ 4 characters a token) is no provider's count: nothing unlogged is read from it (unlogged.ts).
  const unlogged = transcript.header.source?.format === 'synthetic' ? split.map(() => 0) : unloggedBySteps(split);
  const inContext = unloggedInContext(split, unlogged);
  // After a rebuild from the log, the texts an importer rebuilt for messages before it are not sent (unlogged.ts).
  const resetOrders = resets.map((i) => order.get(steps[i]?.carrier ?? '') ?? -1);
  const clearedTails = (i: number): number => {
    const latest = resetOrders.filter((_, r) => (resets[r] as number) <= i).pop();
    return latest === undefined ? 0 : (steps[i] as UsageRow).tails.reduce((sum, t) => (t.order < latest ? sum + t.tokens : sum), 0);
  };
  const residuals = (segment: number): number[] =>
    split.flatMap((s, i) => (s.segment === segment ? [s.recorded - s.computed - (inContext[i] as number) + clearedTails(i)] : [])).slice(0, OFFSET_STEPS);
  const first = residuals(0);
  if (first.length === 0) return NO_HIDDEN_PREFIX;
  const tokens = Math.max(0, Math.round(median(first)));
  const restored: Record<string, number> = {};
  const restoredKept: Record<string, number> = {};
  const rebuilt: Record<string, number> = {};
  const compactions = new Map(transcript.events.flatMap((e) => (e.type === 'compaction' ? [[e.id, e] as const] : [])));
  // What each segment's first calls show beyond the messages: after a compaction, what came back with
  // the summary (over the prefix then sent); after a rebuild from the log, the prefix itself, measured anew.
  let base = tokens;
  split.forEach((step, i) => {
    if (i === 0 || split[i - 1]?.segment === step.segment) return;
    const mine = residuals(step.segment);
    if (resets.includes(i)) {
      base = Math.max(0, Math.round(median(mine)));
      if (step.carrier !== undefined) rebuilt[step.carrier] = base;
      return;
    }
    const id = compactionIds[steps[i]?.segment ?? 0];
    if (id === undefined || mine.length === 0 || restored[id] !== undefined) return;
    const measured = Math.max(0, Math.round(median(mine)) - base);
    const texts = compactions.get(id)?.restored ?? [];
    const { kept, used } = restoredTextsThatFit(texts, measured, id, tokenizer, format);
    if (texts.length > 0) restoredKept[id] = kept;
    restored[id] = measured - used;
  });
  const carried: Record<string, number> = {};
  split.forEach((s, i) => {
    const n = unlogged[i] as number;
    if (n > 0 && s.carrier !== undefined) carried[s.carrier] = (carried[s.carrier] ?? 0) + n;
  });
  return {
    tokens,
    source: 'auto',
    estimatedOn: first.length,
    ...(Object.keys(restored).length > 0 ? { restored } : {}),
    ...(Object.keys(restoredKept).length > 0 ? { restoredKept } : {}),
    ...(Object.keys(carried).length > 0 ? { unlogged: carried } : {}),
    ...(Object.keys(rebuilt).length > 0 ? { rebuilt } : {}),
  };
}

/** The rebuilt re-attached texts, most recent file first, while they fit what the usage shows came back: how many, and their tokens. */
function restoredTextsThatFit(
  texts: readonly string[],
  measured: number,
  id: string,
  tokenizer: Tokenizer,
  format: ProviderName,
): { kept: number; used: number } {
  let kept = 0;
  let used = 0;
  for (const text of texts) {
    const cost = tokenizer.countMessages([{ type: 'message', id, role: 'user', text }], format);
    if (used + cost > measured) break;
    used += cost;
    kept++;
  }
  return { kept, used };
}

/** One call with recorded usage, what `recorded` sends before it, and what it could carry unlogged. */
interface UsageRow extends UsageStep {
  /** The message the call's unlogged content would ride with: the last one added before it. */
  carrier: string | undefined;
  /** The messages in the context whose text ends with content the importer rebuilt (`unloggedChars`): their order and its tokens. */
  tails: { order: number; tokens: number }[];
}

/**
 * The log's calls with usage, each with what `recorded` sends before it (the log's messages, its
 * own compactions followed, the current turn's reasoning, counted with `tokenizer`), its
 * compaction segment, and the order of every event id (message or compaction) in the log.
 */
function usageSteps(
  transcript: Transcript,
  tokenizer: Tokenizer,
  format: ProviderName,
): { steps: UsageRow[]; compactionIds: (string | undefined)[]; order: Map<string, number> } {
  const history = createHistory();
  const dialect = transcript.header.dialect;
  const steps: UsageRow[] = [];
  const compactionIds: (string | undefined)[] = [undefined];
  const order = eventOrder(transcript.events);
  let carrier: string | undefined;
  for (const event of transcript.events) {
    if (event.type === 'message' && event.role === 'assistant') {
      const recorded = event.usage?.input;
      if (recorded !== undefined && recorded > 0) {
        const computed = tokenizer.countMessages(history.messages, format) + carriedReasoningTokens(history.messages, tokenizer, format, dialect);
        const tails = history.messages.flatMap((m) =>
          m.unloggedChars === undefined ? [] : [{ order: order.get(m.id) ?? -1, tokens: unloggedTailTokens(m, tokenizer) }],
        );
        steps.push({ recorded, computed, segment: compactionIds.length - 1, carrier: carrier ?? history.messages[history.messages.length - 1]?.id, tails });
        carrier = undefined;
      }
    } else if (event.type === 'message') carrier = event.id;
    if (event.type === 'compaction' && event.summary !== undefined) compactionIds.push(event.id);
    // What came back after a compaction is measured without the texts rebuilt for it, then fitted to it.
    applyRecorded(history, event.type === 'compaction' ? withoutRestored(event) : event);
  }
  return { steps, compactionIds, order };
}

/** A compaction without the texts an importer rebuilt as re-attached with it (what the log itself holds). */
export function withoutRestored(event: CompactionEvent): CompactionEvent {
  if (event.restored === undefined) return event;
  const { restored: _rebuilt, ...rest } = event;
  return rest;
}

/**
 * The events a unit replays: each compaction's rebuilt re-attached texts cut to those the recorded
 * usage has room for (`HiddenPrefix.restoredKept`); without an estimate (no usage, or a given
 * prefix) as the importer rebuilt them.
 */
export function fitRestored(events: readonly TranscriptEvent[], hidden: HiddenPrefix): readonly TranscriptEvent[] {
  const kept = hidden.restoredKept;
  if (kept === undefined) return events;
  return events.map((event) => {
    const n = event.type === 'compaction' ? kept[event.id] : undefined;
    if (event.type !== 'compaction' || n === undefined || event.restored === undefined) return event;
    return n === 0 ? withoutRestored(event) : { ...event, restored: event.restored.slice(0, n) };
  });
}

// Every strategy over a log reads the same estimate: kept across a corpus's logs (a few numbers each).
const estimates = runLogMemo<Transcript, WeakMap<Tokenizer, Map<ProviderName, HiddenPrefix>>>();

/** The scenario's `hiddenPrefix` setting resolved for one transcript. */
export function resolveHiddenPrefix(setting: 'auto' | number, transcript: Transcript, tokenizer: Tokenizer, format: ProviderName): HiddenPrefix {
  if (setting === 'auto') {
    // Every strategy of a scenario replays the same transcript with the same tokenizer: estimated once.
    let byTokenizer = estimates.get(transcript);
    if (byTokenizer === undefined) estimates.set(transcript, (byTokenizer = new WeakMap<Tokenizer, Map<ProviderName, HiddenPrefix>>()));
    let byFormat = byTokenizer.get(tokenizer);
    if (byFormat === undefined) byTokenizer.set(tokenizer, (byFormat = new Map<ProviderName, HiddenPrefix>()));
    let estimate = byFormat.get(format);
    if (estimate === undefined) byFormat.set(format, (estimate = estimateHiddenPrefix(transcript, tokenizer, format)));
    return estimate;
  }
  return setting === 0 ? NO_HIDDEN_PREFIX : { tokens: setting, source: 'given' };
}
