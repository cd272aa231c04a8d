import { z } from 'zod';
import type { ContextMessage } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { createHistory, type History } from './helpers/history.js';
import { applyRollingWindow, createWindowState, observeWindow, type WindowState } from './rolling-window.js';
import { addNotes, extractNotes, injectAfterSystem, scratchpadMessage, syntheticSystem } from './helpers/scratchpad.js';
import { groupStarts, leadingSystem } from './helpers/history.js';
import { requestSummary } from './helpers/summary-call.js';

const options = z.strictObject({
  groups: z.number().int().min(0).default(3).describe('how many of the most recent conversation groups the rolling window keeps; 0 keeps the whole history'),
  maxNotes: z
    .number()
    .int()
    .min(1)
    .default(20)
    .describe('notes kept in the scratchpad beside the state block (assistant text lines that start with NOTE:); the oldest go first'),
  rebuildAfter: z
    .number()
    .int()
    .min(0)
    .default(3)
    .describe(
      'once the window cuts history, have the model write the STATE block (a metered call) when none exists or the latest is this many groups old; 0 = never',
    ),
  rebuildAt: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe(
      'also write the STATE block when the context reaches this fraction of the window, though the window cuts nothing (sessions of few long groups); 0 = only when the window cuts',
    ),
  rebuildTokens: z.number().int().positive().default(1024).describe('output budget of the rebuilt STATE block, in tokens'),
});

export type Options = z.infer<typeof options>;

/** The latest state block an assistant wrote, and where. */
interface StateBlock {
  text: string;
  /** Id of the assistant message it was found in. */
  from: string;
  /** The labelled parts found in it (goal, context, resolved, anchors). */
  fields: string[];
  /** Groups in the history when it was written (its age is counted from there). */
  group: number;
  /** Messages of the history it covers (a rebuild summarizes from there on). */
  covered: number;
}

export interface State extends History, WindowState {
  options: Options;
  anchor?: StateBlock;
  notes: string[];
  /** STATE blocks the model wrote on request. */
  rebuilds: number;
  /** A `compact` control event arrived: rebuild the anchor at the next step. */
  compactRequested: boolean;
}

const HEADING = /^###\s+STATE\b.*$/;
// A block ends at the next heading of level 1 to 3 (`### NEXT STEPS`, `## Plan`), or at the end.
const NEXT_HEADING = /^#{1,3}\s/;
const FIELDS: [string, RegExp][] = [
  ['goal', /^[\s*_-]*goal\b/i],
  ['context', /^[\s*_-]*context\b/i],
  ['resolved', /^[\s*_-]*resolved\b/i],
  ['anchors', /^[\s*_-]*(technical\s+)?anchors?\b/i],
];

/**
 * The last `### STATE` block of a text: the lines after the heading up to the next heading of
 * level 1–3 or the end, trimmed; undefined when there is none or it is empty.
 */
export function parseStateBlock(text: string): { text: string; fields: string[] } | undefined {
  const lines = text.split('\n');
  let start = -1;
  lines.forEach((line, i) => {
    if (HEADING.test(line)) start = i;
  });
  if (start === -1) return undefined;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (NEXT_HEADING.test(line)) break;
    body.push(line);
  }
  const block = body.join('\n').trim();
  if (block === '') return undefined;
  const fields = FIELDS.filter(([, pattern]) => body.some((line) => pattern.test(line))).map(([name]) => name);
  return { text: block, fields };
}

function anchorMessages(state: State): (ContextMessage | undefined)[] {
  const block =
    state.anchor === undefined
      ? undefined
      : syntheticSystem('state-anchor:state', 'state', `### STATE (persistent; latest from message ${state.anchor.from})`, [state.anchor.text]);
  return [block, scratchpadMessage('state-anchor:scratchpad', state.notes)];
}

function observeAssistant(text: string, id: string, state: State, env: StrategyEnv): void {
  state.notes = addNotes(state.notes, extractNotes(text), state.options.maxNotes);
  const parsed = parseStateBlock(text);
  if (parsed === undefined || parsed.text === state.anchor?.text) return;
  const before = state.anchor === undefined ? 0 : env.count(state.anchor.text);
  state.anchor = { text: parsed.text, from: id, fields: parsed.fields, group: groupStarts(state.messages).length, covered: state.messages.length };
  env.emit({
    action: 'note',
    reason: `state block updated from ${id}`,
    tokensBefore: before,
    tokensAfter: env.count(parsed.text),
    detail: `fields: ${parsed.fields.join(', ') || 'none labelled'}`,
  });
}

function anchored(messages: readonly ContextMessage[], state: State, env: StrategyEnv): ContextMessage[] {
  return injectAfterSystem(applyRollingWindow(messages, state, env), anchorMessages(state));
}

/** The seed's `/context rebuild`: what the model is asked to write. */
const REBUILD_PROMPT = [
  'The conversation above is leaving your context window. Write your persistent state so that you can continue from it alone.',
  'Answer with a block that starts with the line `### STATE` and has these labelled lines:',
  'Goal: the task and its constraints; Context: what you are working on now and where;',
  'Resolved: what is done and decided (and why); Technical anchors: exact file paths, commands, identifiers, values and errors.',
  'If a previous STATE block is given, update it: keep what still holds, add what is new.',
].join(' ');

/**
 * Whether the anchor must be (re)written: the window cuts history or the context reached
 * `rebuildAt` of the window, and there is no block or it is `rebuildAfter` groups old.
 */
function needsRebuild(state: State, env: StrategyEnv, manual: boolean): boolean {
  const { rebuildAfter, rebuildAt } = state.options;
  const groups = groupStarts(state.messages).length;
  if (manual) return groups > 0 && state.anchor?.covered !== state.messages.length;
  if (rebuildAfter === 0) return false;
  const stale = state.anchor === undefined || groups - state.anchor.group >= rebuildAfter;
  if (!stale) return false;
  const cuts = state.groups > 0 && groups > state.groups;
  return cuts || (rebuildAt > 0 && groups > 0 && env.countMessages(state.messages) >= Math.floor(rebuildAt * env.window));
}

/**
 * Has the model write the STATE block from the history it has not covered yet (the previous
 * block, then the messages since), metered through `env.model`; the block is then anchored. A
 * failed call leaves the previous anchor in place.
 */
async function rebuildAnchor(state: State, env: StrategyEnv, reason: string): Promise<void> {
  const previous = state.anchor;
  const system = leadingSystem(state.messages);
  const from = Math.max(previous?.covered ?? 0, system.length);
  const prior: ContextMessage[] =
    previous === undefined
      ? []
      : [{ type: 'message', id: 'state-anchor:previous', role: 'user', text: `Previous state:\n### STATE\n${previous.text}`, synthetic: 'state' }];
  const outcome = await requestSummary(env, {
    instruction: REBUILD_PROMPT,
    messages: [...system, ...prior, ...state.messages.slice(from)],
    maxOutputTokens: state.options.rebuildTokens,
    purpose: 'summary',
    reason: 'context rebuild: STATE block',
    mode: 'rebuild',
    shrinkOnOverflow: true,
  });
  if (!outcome.ok) return;
  // A model that forgets the heading still wrote the state: its whole answer is the block.
  const parsed = parseStateBlock(outcome.text) ?? parseStateBlock(`### STATE\n${outcome.text}`);
  if (parsed === undefined) return;
  const n = state.rebuilds + 1;
  state.anchor = { text: parsed.text, from: `rebuild ${n}`, fields: parsed.fields, group: groupStarts(state.messages).length, covered: state.messages.length };
  state.rebuilds = n;
  env.emit({
    action: 'anchor',
    reason,
    mode: 'rebuild',
    tokensBefore: previous === undefined ? 0 : env.count(previous.text),
    tokensAfter: env.count(parsed.text),
    detail: `fields: ${parsed.fields.join(', ') || 'none labelled'}`,
  });
}

async function prepareAnchored(messages: readonly ContextMessage[], state: State, env: StrategyEnv): Promise<ContextMessage[]> {
  const manual = state.compactRequested;
  state.compactRequested = false;
  if (needsRebuild(state, env, manual)) {
    const why = manual
      ? 'manual /compact'
      : state.anchor === undefined
        ? 'no STATE block exists'
        : `the STATE block is ${groupStarts(state.messages).length - state.anchor.group} groups old`;
    await rebuildAnchor(state, env, why);
  }
  return anchored(messages, state, env);
}

/**
 * A rolling window plus a persistent state block. The agent keeps its state in a `### STATE`
 * block (goal, context, resolved items, technical anchors); the latest one any assistant message
 * wrote is injected right after the system prompt at every step, so it survives the window, with
 * the scratchpad of NOTE: lines beside it. Real agents do not write one unasked: once the window
 * cuts history and no block exists, or the latest is `rebuildAfter` groups old (or at a manual
 * `/compact`), the strategy asks the model to write it (the seed's `/context rebuild`).
 */
export const stateAnchor: Strategy<Options, State> = {
  name: 'state-anchor',
  description:
    'A rolling window of the last 3 groups plus a persistent state: the latest ### STATE block (goal, context, resolved, anchors), which the model is asked to write once the window cuts history or the context reaches half the window and none is 3 groups fresh, and a NOTE: scratchpad, injected after the system prompt at every step.',
  options,
  // No token budget (maxShare 0): this strategy answers a session of few long groups with its own
  // size rule, `rebuildAt`, which writes the STATE block rather than cutting rounds; a budget on top
  // would cut what the block has not covered yet.
  init: (opts) => ({ ...createHistory(), ...createWindowState(opts.groups, 0), options: opts, notes: [], rebuilds: 0, compactRequested: false }),
  observe(event, state, env) {
    observeWindow(event, state);
    if (event.type === 'message' && event.role === 'assistant') observeAssistant(event.text, event.id, state, env);
    if (event.type === 'control' && event.action === 'compact') state.compactRequested = true;
  },
  prepare: (state, env) => prepareAnchored(state.messages, state, env),
  transform: (context, state, env) => prepareAnchored(context, state, env),
  thresholds: (opts, window) => (opts.rebuildAt > 0 && opts.rebuildAfter > 0 ? [{ label: 'state rebuild', tokens: Math.floor(opts.rebuildAt * window) }] : []),
};
