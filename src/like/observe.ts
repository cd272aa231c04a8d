import type { MessageEvent, Transcript, TranscriptEvent } from '../transcript/types.js';
import { listMessages, renderMessageText } from '../probes/message-text.js';
import { extractNeededUses } from '../probes/needed/extract.js';
import type { NeededKind } from '../probes/needed/types.js';
import { median } from '../stats.js';
import { countTokens } from '../tokens/tokenizer.js';
import type { CopyPlace, SourceRole, ToolShape } from './fit-types.js';
import { unloggedTokensOf } from './unlogged.js';

/** One needed use as the fit reads it. */
interface ObservedUse {
  readonly distance: number;
  readonly sourceRole: SourceRole;
  readonly kind: NeededKind;
  /** Whether the fact stood in the source's tool calls (an agent's message), where its text may not. */
  readonly inCall: boolean;
  /** Where the fact stood in its source message's text, 0 to 1 (1 when only in its calls). */
  readonly position: number;
  /** Where messages before the source held the fact too: a tool result, a request, the agent's text, its calls. */
  readonly earlier: readonly CopyPlace[];
}

/**
 * How a log's steps lie in tasks that complete (what task-evicting strategies evict when they
 * do): each step belongs to the task open at it that completes first, or to none. `spans` are the
 * runs of steps of one such task; `lead` the steps before the first, `tail` those after the last
 * (all the steps when no task completes), `gaps` the steps between two (0 when one follows the other).
 */
export interface TaskStretches {
  readonly lead: number;
  readonly spans: readonly number[];
  readonly gaps: readonly number[];
  readonly tail: number;
}

/** Everything the fit takes from one log (`observeLog`), before it is pooled with the others. */
export interface LogObservation {
  readonly format: string;
  readonly dialect: Transcript['header']['dialect'];
  readonly model?: string;
  readonly steps: number;
  readonly hiddenTokens?: number;
  readonly systemTokens: number;
  readonly stepsPerTask: readonly number[];
  readonly taskStretches: TaskStretches;
  /** Task ids the log's task events started, and where each was read from. */
  readonly taskSources: readonly string[];
  /** Tokens of each user request, the first (the task statement) first. */
  readonly userTokens: readonly number[];
  readonly textTokens: readonly number[];
  readonly thinkingTokens: readonly number[];
  readonly reasoningTokens: readonly number[];
  readonly callTokens: readonly number[];
  readonly callsPerStep: readonly number[];
  readonly toolNames: readonly string[];
  readonly asText: number;
  readonly toolTokens: readonly number[];
  readonly toolShapes: readonly ToolShape[];
  /** Per `PHASES`-th of the log's steps, its mean tool result over its mean (empty for a log of fewer steps or no results). */
  readonly toolPhases: readonly number[];
  /** Per tool result and request, what the agent sent with it beyond its logged text (unlogged.ts). */
  readonly unloggedTokens: readonly number[];
  /** Per `PHASES`-th of the log's steps, the tokens it sent unlogged per step, over the log's mean (all 1 for a log that sends none). */
  readonly unloggedGrowth: readonly number[];
  readonly uses: readonly ObservedUse[];
  /** Steps at which a use can occur (from the minimum distance on). */
  readonly useSteps: number;
  readonly compactions: number;
  readonly summaryTokens: readonly number[];
}

/** How many first calls estimate the hidden prefix (as replay/hidden-prefix.ts does, on characters). */
const HIDDEN_STEPS = 3;
const MIN_DISTANCE = 10;

/** Reads one log's sizes, turns, needed uses and compactions (pure). */
export function observeLog(transcript: Transcript): LogObservation {
  const messages = listMessages(transcript.events);
  const assistants = messages.filter((m) => m.role === 'assistant');
  const tools = messages.filter((m) => m.role === 'tool');
  const compactions = transcript.events.flatMap((e) => (e.type === 'compaction' ? [e] : []));
  const hidden = hiddenTokensOf(messages);
  const unlogged = unloggedTokensOf(transcript);
  return {
    format: transcript.header.source?.format ?? 'unknown',
    dialect: transcript.header.dialect,
    ...(transcript.header.model !== undefined ? { model: transcript.header.model } : {}),
    steps: assistants.length,
    ...(hidden !== undefined ? { hiddenTokens: hidden } : {}),
    systemTokens: messages.filter((m) => m.role === 'system').reduce((sum, m) => sum + tokensOf(m.text), 0),
    stepsPerTask: stepsPerTask(messages),
    taskStretches: taskStretchesOf(transcript.events),
    taskSources: [
      ...new Map(
        transcript.events.flatMap((e) => (e.type === 'task' && e.status === 'in_progress' ? [[e.id, e.source ?? 'user-turns'] as const] : [])),
      ).values(),
    ],
    userTokens: messages.filter((m) => m.role === 'user').map((m) => tokensOf(m.text)),
    textTokens: assistants.map((m) => tokensOf(m.text)),
    thinkingTokens: assistants.map((m) => tokensOf(m.thinking ?? '')),
    reasoningTokens: assistants.map((m) => m.reasoningTokens ?? 0),
    callTokens: assistants.flatMap((m) => (m.toolCalls ?? []).map((c) => tokensOf(JSON.stringify(c.args)))),
    callsPerStep: assistants.map((m) => m.toolCalls?.length ?? 0),
    toolNames: assistants.flatMap((m) => (m.toolCalls ?? []).map((c) => c.name)),
    asText: assistants.filter((m) => m.sentAsText === true).length,
    toolTokens: tools.map((m) => tokensOf(m.text)),
    toolShapes: tools.map((m) => shapeOf(m.text)),
    toolPhases: toolPhasesOf(messages),
    unloggedTokens: [...unlogged.values()],
    unloggedGrowth: growthOf(messages, unlogged),
    uses: observeUses(transcript, messages),
    useSteps: Math.max(0, assistants.length - MIN_DISTANCE),
    compactions: compactions.length,
    summaryTokens: compactions.flatMap((c) => (c.summary !== undefined ? [tokensOf(c.summary)] : [])),
  };
}

/** Sizes are counted with one tokenizer whatever the log's model, so that fits of two formats compare. */
export function tokensOf(text: string): number {
  return text === '' ? 0 : countTokens('o200k_base', text);
}

/** Recorded input − the tokens the log holds so far, over the first calls with usage. */
function hiddenTokensOf(messages: readonly MessageEvent[]): number | undefined {
  const residuals: number[] = [];
  let tokens = 0;
  for (const message of messages) {
    if (residuals.length >= HIDDEN_STEPS) break;
    if (message.role === 'assistant' && message.usage?.input !== undefined) residuals.push(Math.max(0, message.usage.input - tokens));
    tokens += tokensOf(message.text) + (message.toolCalls === undefined ? 0 : tokensOf(JSON.stringify(message.toolCalls)));
  }
  return residuals.length === 0 ? undefined : Math.round(median(residuals));
}

/** Phases of a log's length that `unloggedGrowth` measures: enough to see a session that sends little unlogged at first and much later, few enough that each phase of a 30-step log holds six steps. */
const PHASES = 5;

/** The phase of a message read after the `step`-th assistant message of `steps` (before the first: phase 0). */
function phaseOf(step: number, steps: number): number {
  return Math.min(PHASES - 1, Math.floor((Math.max(0, step - 1) / Math.max(1, steps)) * PHASES));
}

/** `LogObservation.unloggedGrowth`: what each phase of the steps sent unlogged, per step, over the whole log's per step. */
function growthOf(messages: readonly MessageEvent[], unlogged: ReadonlyMap<string, number>): number[] {
  const steps = messages.filter((m) => m.role === 'assistant').length;
  const added = Array.from({ length: PHASES }, () => 0);
  let step = 0;
  for (const message of messages) {
    if (message.role === 'assistant') step++;
    const phase = phaseOf(step, steps);
    added[phase] = (added[phase] ?? 0) + (unlogged.get(message.id) ?? 0);
  }
  const total = added.reduce((sum, v) => sum + v, 0);
  if (total === 0 || steps < PHASES) return added.map(() => 1);
  const stepsIn = (phase: number): number => Math.ceil(((phase + 1) * steps) / PHASES) - Math.ceil((phase * steps) / PHASES);
  return added.map((tokens, phase) => Math.round((tokens / Math.max(1, stepsIn(phase)) / (total / steps)) * 1000) / 1000);
}

/**
 * `LogObservation.toolPhases`: the mean tool result of each phase of the steps over the log's
 * mean (a phase without results weighs 0). An agent reads the tree and the files it will work on
 * first: a mini-swe-agent log's first fifth has results 1.8 times its mean, its middle 0.6.
 */
function toolPhasesOf(messages: readonly MessageEvent[]): number[] {
  const steps = messages.filter((m) => m.role === 'assistant').length;
  const sums = Array.from({ length: PHASES }, () => ({ tokens: 0, n: 0 }));
  let step = 0;
  for (const message of messages) {
    if (message.role === 'assistant') step++;
    if (message.role !== 'tool') continue;
    const phase = sums[phaseOf(step, steps)];
    if (phase === undefined) continue;
    phase.tokens += tokensOf(message.text);
    phase.n++;
  }
  const n = sums.reduce((sum, p) => sum + p.n, 0);
  const mean = sums.reduce((sum, p) => sum + p.tokens, 0) / Math.max(1, n);
  if (steps < PHASES || mean === 0) return [];
  return sums.map((p) => (p.n === 0 ? 0 : Math.round((p.tokens / p.n / mean) * 1000) / 1000));
}

/** Assistant messages between one user request and the next (the last task runs to the end). */
function stepsPerTask(messages: readonly MessageEvent[]): number[] {
  const counts: number[] = [];
  for (const message of messages) {
    if (message.role === 'user') counts.push(0);
    else if (message.role === 'assistant' && counts.length > 0) counts[counts.length - 1] = (counts.at(-1) ?? 0) + 1;
  }
  return counts.filter((n) => n > 0);
}

/** A message's text and, apart, its calls, as searched for a fact. */
interface Searchable {
  readonly role: SourceRole;
  readonly text: string;
  readonly calls: string;
}

function searchableOf(message: MessageEvent): Searchable {
  const calls = (message.toolCalls ?? []).length === 0 ? '' : renderMessageText({ ...message, text: '' });
  return { role: roleOf(message.role), text: message.text, calls };
}

/** Where the messages before `before` hold the fact: by role in their text, `call` in an agent's calls. */
function earlierPlaces(searchable: readonly Searchable[], before: number, fact: string): CopyPlace[] {
  const places = new Set<CopyPlace>();
  for (let i = 0; i < before; i++) {
    const message = searchable[i] as Searchable;
    if (message.text.includes(fact)) places.add(message.role);
    if (message.calls.includes(fact)) places.add('call');
  }
  return [...places];
}

function observeUses(transcript: Transcript, messages: readonly MessageEvent[]): ObservedUse[] {
  const searchable = messages.map(searchableOf);
  return extractNeededUses(transcript, { minDistance: MIN_DISTANCE }).map((use) => {
    const source = searchable[use.sourceIndex];
    const text = source?.text ?? '';
    const at = text.indexOf(use.fact);
    return {
      distance: use.useStep - use.sourceStep,
      sourceRole: source?.role ?? 'assistant',
      kind: use.kind,
      inCall: source?.calls.includes(use.fact) === true,
      // A fact found only in the tool call's arguments stands after the text.
      position: at < 0 || text.length === 0 ? 1 : at / text.length,
      earlier: earlierPlaces(searchable, use.sourceIndex, use.fact),
    };
  });
}

/** The log's steps by the completing task that holds them (`TaskStretches`); a completion after the last step evicts nothing used. */
export function taskStretchesOf(events: readonly TranscriptEvent[]): TaskStretches {
  const lastStep = events.findLastIndex((e) => e.type === 'message' && e.role === 'assistant');
  const completedAt = new Map<string, number>();
  events.forEach((e, i) => {
    if (e.type === 'task' && e.status === 'completed' && i < lastStep && !completedAt.has(e.id)) completedAt.set(e.id, i);
  });
  const open: string[] = [];
  const labels: (string | undefined)[] = [];
  for (const event of events) {
    if (event.type === 'task') {
      if (event.status === 'in_progress' && !open.includes(event.id)) open.push(event.id);
      else if (event.status !== 'in_progress' && open.includes(event.id)) open.splice(open.indexOf(event.id), 1);
    } else if (event.type === 'message' && event.role === 'assistant') {
      const completing = open.filter((id) => completedAt.has(id));
      labels.push(completing.sort((a, b) => (completedAt.get(a) as number) - (completedAt.get(b) as number))[0]);
    }
  }
  return stretchesOf(labels);
}

/** Runs of equal labels: the unlabelled ones before the first, between and after the last labelled run. */
function stretchesOf(labels: readonly (string | undefined)[]): TaskStretches {
  const spans: number[] = [];
  const gaps: number[] = [];
  let lead = 0;
  let free = 0;
  let seen = false;
  labels.forEach((label, i) => {
    if (label === undefined) {
      free++;
      return;
    }
    if (label === labels[i - 1]) {
      spans[spans.length - 1] = (spans.at(-1) ?? 0) + 1;
      return;
    }
    if (seen) gaps.push(free);
    else lead = free;
    seen = true;
    free = 0;
    spans.push(1);
  });
  return seen ? { lead, spans, gaps, tail: free } : { lead: free, spans, gaps, tail: 0 };
}

function roleOf(role: MessageEvent['role'] | undefined): SourceRole {
  return role === 'tool' || role === 'user' ? role : 'assistant';
}

/**
 * The shape of a tool output, read from its lines: most lines numbered (`  12\tcode`) or code
 * punctuation → code; a test runner's or a traceback's words → test; most lines one word (paths,
 * names) → listing; anything else → text.
 */
export function shapeOf(text: string): ToolShape {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return 'text';
  const share = (test: (line: string) => boolean): number => lines.filter(test).length / lines.length;
  if (/Traceback \(most recent call last\)|\b(?:passed|failed|FAILED|PASSED)\b|\bError: /.test(text)) return 'test';
  if (share((l) => /^\s*\d+[\t:| ]/.test(l) || /[{};]\s*$|^\s*(?:def|class|import|from|return|function|const|let)\b/.test(l)) >= 0.4) return 'code';
  if (share((l) => !/\s/.test(l.trim())) >= 0.6) return 'listing';
  return 'text';
}
