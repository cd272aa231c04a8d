import type { Random } from '../../random.js';
import type { MessageEvent, ToolCall, TranscriptEvent } from '../types.js';
import { numberLines, renderFunction, renderModuleLines } from './code.js';
import type { FactFrame } from './facts.js';
import type { FactPlacement, SessionPlan, StepPlan, TaskSpec } from './plan.js';
import {
  drawCriteria,
  renderFinal,
  renderRequest,
  renderResultSummary,
  renderSaying,
  renderSystemPrompt,
  renderThinking,
  type Slots,
  type ToolAction,
} from './prose.js';
import { renderGrep, renderShell, shellCommand, SHELL_KINDS } from './shell.js';
import { renderTestRun } from './tests.js';
import type { Project } from './vocab.js';
import { placeFactLine, type FactPosition } from './placement.js';

/**
 * Writes the text of a planned session. Planted facts appear as markers (`⟦F3⟧`); their values
 * are chosen afterwards (synthetic.ts), once the rest of the text is known.
 */

export interface DraftFact {
  placement: FactPlacement;
  frame: FactFrame;
  marker: string;
  /** For a later change of a value: the index (in `Draft.facts`) of the fact it changes. */
  updates?: number;
}

export interface Draft {
  events: TranscriptEvent[];
  facts: DraftFact[];
}

export interface RenderOptions {
  /** Average size of a tool result in characters. */
  toolOutputChars: number;
  /** Makes the id of the n-th tool call (dialect-specific). */
  callId(n: number): string;
  /** Plant look-alikes beside facts (harder probes). */
  distractors?: boolean;
  /** Where a tool fact's line sits in its output (synthetic-placement.ts); default `head`. */
  factPosition?: FactPosition;
  /** Draws the fact positions; a stream of its own, so `head` leaves every other draw unchanged. */
  placement?: Random;
}

interface Call {
  name: ToolAction;
  args: Record<string, unknown>;
  result: string;
  /** The file or command the call is about, for the prose around it. */
  subject: Slots;
}

const markerOf = (index: number): string => `⟦F${index}⟧`;
export const MARKER_PATTERN = /⟦F(\d+)⟧/g;

/** The state of one rendering pass: the events so far and the facts framed so far. */
interface Writer {
  random: Random;
  project: Project;
  plan: SessionPlan;
  options: RenderOptions;
  events: TranscriptEvent[];
  facts: DraftFact[];
  /** `template:subject` of the facts framed so far; a repeat would make two probes ask the same. */
  subjects: Set<string>;
  messages: number;
  calls: number;
}

export function renderDraft(random: Random, project: Project, plan: SessionPlan, options: RenderOptions): Draft {
  const writer: Writer = { random, project, plan, options, events: [], facts: [], subjects: new Set(), messages: 0, calls: 0 };
  pushMessage(writer, { role: 'system', text: renderSystemPrompt(random, project) });
  for (const task of plan.tasks) renderTask(writer, task);
  return { events: writer.events, facts: writer.facts };
}

function pushMessage(writer: Writer, message: Omit<MessageEvent, 'type' | 'id'>): void {
  writer.events.push({ type: 'message', id: `m${String(++writer.messages).padStart(4, '0')}`, ...message });
}

function sizeOfResult(writer: Writer): number {
  return Math.round(writer.options.toolOutputChars * (0.5 + writer.random.next()));
}

/** Frames the planted fact `index` once its slot is reached (a few tries for a subject not yet used). */
function frameFact(writer: Writer, index: number | undefined, task: TaskSpec): FactFrame | undefined {
  const placement = index === undefined ? undefined : writer.plan.facts[index];
  if (placement === undefined) return undefined;
  if (placement.updates !== undefined) return frameUpdate(writer, placement);
  const distractors = writer.options.distractors === true;
  for (let attempt = 0; attempt < 5; attempt++) {
    const marker = markerOf(writer.facts.length);
    const frame = placement.template.frame({ random: writer.random, project: writer.project, task, marker, targetChars: sizeOfResult(writer), distractors });
    const key = `${placement.template.name}:${frame.subject}`;
    if (writer.subjects.has(key)) continue;
    writer.subjects.add(key);
    const placed = placeInOutput(writer, frame, marker);
    writer.facts.push({ placement, frame: placed, marker });
    return placed;
  }
  return undefined;
}

/** The frame with its fact's line moved to the drawn position of its tool output. */
function placeInOutput(writer: Writer, frame: FactFrame, marker: string): FactFrame {
  const { factPosition = 'head', placement } = writer.options;
  if (frame.call === undefined || frame.call.keepsLayout === true || placement === undefined) return frame;
  return { ...frame, call: { ...frame.call, result: placeFactLine(frame.call.result, marker, factPosition, placement) } };
}

/** Frames the later change of a planted value, once the fact it changes was framed. */
function frameUpdate(writer: Writer, placement: FactPlacement): FactFrame | undefined {
  const original = writer.plan.facts[placement.updates ?? -1];
  const changed = writer.facts.findIndex((f) => f.placement === original);
  const update = writer.facts[changed]?.frame.update;
  if (update === undefined) return undefined;
  const marker = markerOf(writer.facts.length);
  const frame = update({ random: writer.random, marker, previous: writer.facts[changed]?.marker ?? '' });
  writer.facts.push({ placement, frame, marker, updates: changed });
  return frame;
}

function renderTask(writer: Writer, task: TaskSpec): void {
  const { random } = writer;
  const userFact = writer.plan.facts.findIndex((f) => f.step === undefined && f.task === task.index);
  const request = renderRequest(random, task.kind, task.slots);
  const userFrame = frameFact(writer, userFact < 0 ? undefined : userFact, task);
  pushMessage(writer, { role: 'user', text: userFrame?.text === undefined ? request : `${request} ${userFrame.text}` });
  writer.events.push({ type: 'task', id: task.id, status: 'in_progress', title: task.title });
  const state = { edited: false };
  for (const step of writer.plan.steps.filter((s) => s.task === task.index)) {
    const frame = frameFact(writer, step.fact, task);
    if (step.isFinal) renderFinalStep(writer, task, frame);
    else renderToolStep(writer, task, step, frame, state);
  }
  const criteria = random.chance(0.4) ? { criteria: drawCriteria(random, task.slots) } : {};
  const resultSummary = renderResultSummary(random, { ...task.slots, count: random.int(40, 400) });
  writer.events.push({ type: 'task', id: task.id, status: 'completed', title: task.title, resultSummary, ...criteria });
}

/** The task's last reply; a planted continuation is appended to it. */
function renderFinalStep(writer: Writer, task: TaskSpec, frame: FactFrame | undefined): void {
  const { random } = writer;
  const reply = renderFinal(random, { ...task.slots, count: random.int(40, 400) }, frame?.text !== undefined);
  const text = frame?.text === undefined ? reply : `${reply}\n\n${frame.text}`;
  pushMessage(writer, { role: 'assistant', text, thinking: renderThinking(random, 'final', task.slots) });
}

/** An assistant turn with tool calls, then one tool result per call. */
function renderToolStep(writer: Writer, task: TaskSpec, step: StepPlan, frame: FactFrame | undefined, state: { edited: boolean }): void {
  const { random, project } = writer;
  const calls = planCalls(random, project, task, step, frame, state, () => sizeOfResult(writer));
  const first = calls[0] as Call;
  const slots = { ...task.slots, ...first.subject };
  const action = first.name === 'run_tests' && state.edited ? 'retest' : first.name;
  const isToolFact = frame?.call !== undefined;
  // A tool fact words the turn itself; a text fact (a decision) is a paragraph after the usual
  // words, as agents write a decision apart (and a reader finds it as a line of its own).
  const saying = isToolFact && frame.text !== undefined ? frame.text : renderSaying(random, action, slots);
  const text = !isToolFact && frame?.text !== undefined ? `${saying}\n\n${frame.text}` : saying;
  const toolCalls: ToolCall[] = calls.map((call) => ({ id: writer.options.callId(++writer.calls), name: call.name, args: call.args }));
  pushMessage(writer, { role: 'assistant', text, thinking: frame?.thinking ?? renderThinking(random, action, slots), toolCalls });
  calls.forEach((call, i) => pushMessage(writer, { role: 'tool', text: call.result, toolCallId: toolCalls[i]?.id ?? '', toolName: call.name }));
}

/** The calls of a tool step: the planted fact's call, or the planned actions. */
function planCalls(
  random: Random,
  project: Project,
  task: TaskSpec,
  step: StepPlan,
  frame: FactFrame | undefined,
  state: { edited: boolean },
  size: () => number,
): Call[] {
  if (frame?.call !== undefined) {
    const { name, args, result } = frame.call;
    return [{ name, args, result, subject: subjectOf(args) }];
  }
  return step.actions.map((action) => renderCall(random, project, task, action, state, size()));
}

function renderCall(random: Random, project: Project, task: TaskSpec, action: ToolAction, state: { edited: boolean }, size: number): Call {
  switch (action) {
    case 'read_file': {
      const path = random.chance(0.7) ? task.module : random.pick(project.modules);
      return { name: action, args: { path }, result: numberLines(renderModuleLines(random, project, path, size)), subject: { file: path } };
    }
    case 'run_tests': {
      const command = project.language === 'python' ? `pytest ${random.pick(['-v', '-v -x', '-vv'])} ${task.testFile}` : `npx jest ${task.testFile} --verbose`;
      const failing = state.edited ? undefined : task.failingTest;
      const result = renderTestRun(random, project, { command, testFile: task.testFile, targetChars: size, ...(failing ? { failing } : {}) });
      return { name: action, args: { command }, result, subject: { command, file: task.testFile } };
    }
    case 'grep': {
      const pattern = String(task.slots.fn);
      return { name: action, args: { pattern, path: '.' }, result: renderGrep(random, project, pattern, size), subject: { file: project.sourceDir } };
    }
    case 'edit_file':
      state.edited = true;
      return renderEdit(random, project, task, size);
    case 'shell': {
      const kind = random.pick(SHELL_KINDS);
      const command = shellCommand(random, project, kind);
      return { name: action, args: { command }, result: renderShell(random, project, kind, size), subject: { command } };
    }
  }
}

function renderEdit(random: Random, project: Project, task: TaskSpec, size: number): Call {
  const noun = String(task.slots.noun).replace(/ /g, '_');
  const before = renderFunction(random, project, noun).filter((line) => line.trim() !== '');
  const after = renderFunction(random, project, noun).filter((line) => line.trim() !== '');
  const oldString = before.slice(2, 4).join('\n');
  const newString = after.slice(2, 5).join('\n');
  const start = random.int(20, 300);
  const snippet = renderModuleLines(random, project, task.module, size).slice(-Math.max(10, Math.floor(size / 40)));
  const result = `The file ${task.module} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numberLines(snippet, start)}`;
  return { name: 'edit_file', args: { path: task.module, old_string: oldString, new_string: newString }, result, subject: { file: task.module } };
}

function subjectOf(args: Record<string, unknown>): Slots {
  const slots: Slots = {};
  if (typeof args.path === 'string') slots.file = args.path;
  if (typeof args.command === 'string') slots.command = args.command;
  return slots;
}
