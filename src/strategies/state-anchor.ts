import { z } from 'zod';
import type { ContextMessage } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { createHistory, type History } from './history.js';
import { applyRollingWindow, createWindowState, observeWindow, type WindowState } from './rolling-window.js';
import { addNotes, extractNotes, injectAfterSystem, scratchpadMessage, syntheticSystem } from './scratchpad.js';

const options = z.strictObject({
  groups: z.number().int().min(0).default(3).describe('how many of the most recent conversation groups the rolling window keeps; 0 keeps the whole history'),
  maxNotes: z.number().int().min(1).default(20).describe('notes kept in the scratchpad beside the state block (assistant text lines that start with NOTE:); the oldest go first'),
});

export type Options = z.infer<typeof options>;

/** The latest state block an assistant wrote, and where. */
export interface StateBlock {
  text: string;
  /** Id of the assistant message it was found in. */
  from: string;
  /** The labelled parts found in it (goal, context, resolved, anchors). */
  fields: string[];
}

export interface State extends History, WindowState {
  options: Options;
  anchor?: StateBlock;
  notes: string[];
}

const HEADING = /^###\s+STATE\b.*$/;
// A block ends at the next heading of level 1 to 3 (`### NEXT STEPS`, `## Plan`), or at the end.
const NEXT_HEADING = /^#{1,3}\s/;
const FIELDS: Array<[string, RegExp]> = [
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

function anchorMessages(state: State): Array<ContextMessage | undefined> {
  const block = state.anchor === undefined ? undefined : syntheticSystem('state-anchor:state', 'state', `### STATE (persistent; latest from message ${state.anchor.from})`, [state.anchor.text]);
  return [block, scratchpadMessage('state-anchor:scratchpad', state.notes)];
}

function observeAssistant(text: string, id: string, state: State, env: StrategyEnv): void {
  state.notes = addNotes(state.notes, extractNotes(text), state.options.maxNotes);
  const parsed = parseStateBlock(text);
  if (parsed === undefined || parsed.text === state.anchor?.text) return;
  const before = state.anchor === undefined ? 0 : env.count(state.anchor.text);
  state.anchor = { text: parsed.text, from: id, fields: parsed.fields };
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

/**
 * A rolling window plus a persistent state block. The agent keeps its state in a `### STATE`
 * block (goal, context, resolved items, technical anchors); the latest one any assistant message
 * wrote is injected right after the system prompt at every step, so it survives the window, with
 * the scratchpad of NOTE: lines beside it.
 */
export const stateAnchor: Strategy<Options, State> = {
  name: 'state-anchor',
  description:
    'A rolling window of the last 3 groups plus a persistent state: the latest ### STATE block an assistant wrote (goal, context, resolved, anchors) and a NOTE: scratchpad, injected after the system prompt at every step.',
  options,
  init: (opts) => ({ ...createHistory(), ...createWindowState(opts.groups), options: opts, notes: [] }),
  observe(event, state, env) {
    observeWindow(event, state);
    if (event.type === 'message' && event.role === 'assistant') observeAssistant(event.text, event.id, state, env);
  },
  prepare: (state, env) => anchored(state.messages, state, env),
  transform: (context, state, env) => anchored(context, state, env),
};
