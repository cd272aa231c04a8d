import type { MessageEvent, ToolCall } from '../transcript/types.js';
import type { Fact } from './fact.js';
import { capText, describeOutput } from './fact.js';
import { readOutputFacts } from './output-facts.js';
import { PATCH_FILE, readPathArgs, readShellCommand } from './message-text.js';
import { readShellWriteFacts } from './shell-writes.js';

/**
 * Facts from tool calls and their results: the files a call read or edited, the commands it ran
 * (failing ones as continuation), and what the output showed (output-facts.ts).
 */

const TOOL_VERBS: readonly [RegExp, string][] = [
  [/edit|replace|patch|update|modify|apply/i, 'edit'],
  [/write|create|save|new/i, 'write'],
  [/delete|remove|^rm$/i, 'delete'],
  [/read|view|cat|open|^get/i, 'read'],
];

// Commands that say nothing about the work; a probe on them measures nothing.
const TRIVIAL_COMMANDS = new Set(['ls', 'pwd', 'cd', 'clear', 'echo', 'true', 'whoami', 'date']);

// `Exit code: 1`, `exited with code 1`, `exit status 2`, `returncode=1`, `[exit_code: 127]`.
// Codex records it as JSON: `"exit_code":1`.
const EXIT_STATUS = /\b(?:exit(?:ed)?(?: with)?(?:[ _](?:code|status))?|return ?code|returncode)"?\s*[:=]?\s*(-?\d+)\b/gi;
const FAILURE_MARK = /^\s*(?:FAILED|FAIL|ERROR)\b|Traceback \(most recent call last\)|^\s*(?:[\w.]+)?(?:Error|Exception):/m;

/** The exit status an output reports (the last one), if any. */
function readExitStatus(output: string): number | undefined {
  const matches = [...output.matchAll(EXIT_STATUS)];
  const last = matches[matches.length - 1]?.[1];
  return last === undefined ? undefined : Number(last);
}

/** Whether a tool output says its call failed: a non-zero exit status or a failure mark. */
export function isFailingOutput(output: string): boolean {
  const status = readExitStatus(output);
  return (status !== undefined && status !== 0) || FAILURE_MARK.test(output);
}

export function isWorthyCommand(command: string): boolean {
  const first = command.split(/\s+/)[0] ?? '';
  return !command.includes('\n') && command.length >= 6 && command.length <= 120 && /\s/.test(command) && !TRIVIAL_COMMANDS.has(first);
}

function readPathFacts(message: MessageEvent, index: number, call: ToolCall): Fact[] {
  const verb = TOOL_VERBS.find(([pattern]) => pattern.test(call.name))?.[1];
  const question = verb === undefined ? `Which file did the agent pass to \`${call.name}\`?` : `Which file did the agent ${verb} with \`${call.name}\`?`;
  return readPathArgs(call).map((answer) => ({
    kind: 'artifact',
    answer,
    index,
    question,
    isStructured: true,
    // Other argument values (the edited text, a pattern), not the keys: `path`, `old_string` find nothing.
    hintSources: [message.text, otherArgs(call, answer)],
  }));
}

/** The string arguments of a call other than `except` (a description, the edited text), joined. */
function otherArgs(call: ToolCall, except: string): string {
  return Object.values(call.args)
    .filter((v): v is string => typeof v === 'string' && v !== except)
    .join('\n');
}

const PATCH_VERBS: Record<string, string> = { Add: 'create', Update: 'change', Delete: 'delete' };

/** Files an apply_patch call (an argument, or a shell command's heredoc) created, changed or deleted. */
function readPatchFacts(message: MessageEvent, index: number, call: ToolCall): Fact[] {
  const body = Object.values(call.args)
    .flatMap((v) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((w): w is string => typeof w === 'string') : []))
    .join('\n');
  const facts: Fact[] = [];
  for (const match of body.matchAll(PATCH_FILE)) {
    const answer = match[2] ?? '';
    if (facts.some((f) => f.answer === answer && !f.latest)) continue;
    // What the patch wrote into the file says what the file is for.
    const section = body.slice((match.index ?? 0) + match[0].length).split(/\*\*\* (?:Add|Update|Delete|End)/)[0] ?? '';
    const written = section
      .split('\n')
      .filter((line) => line.startsWith('+') || line.startsWith('@@'))
      .join('\n');
    const verb = PATCH_VERBS[match[1] ?? 'Update'] ?? 'change';
    const added = section
      .split('\n')
      .filter((line) => line.startsWith('+') && !line.startsWith('+++'))
      .map((line) => line.slice(1).trim())
      .find((line) => line.length >= 3 && line.length <= 80 && /[A-Za-z0-9]/.test(line));
    if (added !== undefined && verb !== 'delete') {
      facts.push({
        kind: 'artifact',
        answer: added,
        index,
        question: `What did the agent change \`${answer.split('/').pop() ?? answer}\` to with a patch?`,
        hintSources: [message.text],
        latest: true,
      });
    }
    facts.push({
      kind: 'artifact',
      answer,
      index,
      question: `Which file did the agent ${verb} with a patch?`,
      isStructured: true,
      hintSources: [written, message.text],
    });
  }
  return facts;
}

// Arguments that carry the text an edit or write left in a file, and the text it replaced.
const NEW_TEXT_KEYS = ['new_string', 'new_str', 'content', 'file_text'];
const OLD_TEXT_KEYS = ['old_string', 'old_str'];

/**
 * The latest state of a file an edit or write changed: the first line of the new text the old
 * text did not hold (`go 1.23` for `toolchain go1.24.3` → `go 1.23`), asked as what the agent
 * changed the file to. Only the file's last such change makes a probe (`latest`).
 */
function readStateFacts(message: MessageEvent, index: number, call: ToolCall): Fact[] {
  const verb = TOOL_VERBS.find(([pattern]) => pattern.test(call.name))?.[1];
  if (verb !== 'edit' && verb !== 'write') return [];
  const paths = readPathArgs(call);
  const newText = stringArg(call, NEW_TEXT_KEYS);
  if (paths.length !== 1 || newText === undefined) return [];
  const old = new Set((stringArg(call, OLD_TEXT_KEYS) ?? '').split('\n').map((line) => line.trim()));
  const line = newText
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0 && !old.has(l));
  if (line === undefined || line.length < 3 || line.length > 80 || !/[A-Za-z0-9]/.test(line)) return [];
  const name = (paths[0] as string).split('/').pop() as string;
  return [
    {
      kind: 'artifact',
      answer: line,
      index,
      question: `What did the agent change \`${name}\` to with \`${call.name}\`?`,
      hintSources: [message.text],
      latest: true,
    },
  ];
}

/**
 * What the agent was working on, from a plan or todo list it keeps through a tool (Claude Code's
 * `TodoWrite`, Codex's `update_plan`): the item marked `in_progress`. Asked of the last such list
 * (`latest`): the items it moved on from are stale.
 */
function readPlanFacts(message: MessageEvent, index: number, call: ToolCall): Fact[] {
  for (const value of Object.values(call.args)) {
    if (!Array.isArray(value)) continue;
    const current = value.find(
      (item): item is Record<string, unknown> => typeof item === 'object' && item !== null && (item as Record<string, unknown>).status === 'in_progress',
    );
    const task = current === undefined ? undefined : ['content', 'step', 'title', 'description'].map((key) => current[key]).find((v) => typeof v === 'string');
    if (typeof task !== 'string' || task.trim().length < 3 || task.length > 120) continue;
    return [
      {
        kind: 'continuation',
        answer: task.trim(),
        index,
        // Only words of the call's own line (its name, `status`): plan items are made of words such as
        // `updated`, and no question may hold one of its answer's (leak.ts).
        question: `What had status in_progress in the last \`${call.name}\`?`,
        hintSources: [message.text],
        latest: true,
      },
    ];
  }
  return [];
}

function stringArg(call: ToolCall, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = call.args[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

function readCommandFact(message: MessageEvent, index: number, call: ToolCall, output: MessageEvent | undefined): Fact[] {
  const command = readShellCommand(call);
  if (command === undefined || !isWorthyCommand(command)) return [];
  // What the call says it is for (Claude Code's `description`) words the question best.
  const purpose = otherArgs(call, command);
  const outputText = output?.text ?? '';
  // The question does not name the exit status: it stands in the output, a message apart from the
  // command, and a rare number there (`128`) would lead a reader to the output instead of the call.
  if (isFailingOutput(outputText)) {
    return [
      {
        kind: 'continuation',
        answer: command,
        isStructured: true,
        index,
        question: `Which command failed when the agent ran it with \`${call.name}\`?`,
        hintSources: [purpose, outputText, message.text],
      },
    ];
  }
  return [
    {
      kind: 'recall',
      answer: command,
      isStructured: true,
      index,
      question: `Which command did the agent run with \`${call.name}\`?`,
      hintSources: [purpose, message.text, outputText],
    },
  ];
}

/** What links tool calls and their results: calls by id (so far), results by the id they answer. */
export interface ToolLinks {
  calls: ReadonlyMap<string, ToolCall>;
  results: ReadonlyMap<string, MessageEvent>;
}

/** Facts of one message: its tool calls (assistant) or its output (tool). */
export function readToolFacts(message: MessageEvent, index: number, links: ToolLinks): Fact[] {
  if (message.role === 'tool') {
    const call = message.toolCallId === undefined ? undefined : links.calls.get(message.toolCallId);
    const toolName = message.toolName ?? call?.name ?? 'tool';
    const source = describeOutput(toolName);
    const argPaths = new Set(call === undefined ? [] : readPathArgs(call));
    const facts = readOutputFacts(message.text, index, source).filter((f) => !argPaths.has(f.answer));
    // The errors of a failing call are where the work stands: what a continuing agent must fix.
    if (!isFailingOutput(message.text)) return facts;
    // Named by the command that failed, in its words (when they are not the error's own).
    const command = call === undefined ? undefined : readShellCommand(call);
    const failing = command !== undefined && isWorthyCommand(command) ? `\`${capText(command, 60)}\`` : `the failing ${source} call`;
    return facts.map((f) => (f.question.startsWith('What error') ? { ...f, kind: 'continuation', question: `What error did ${failing} report?` } : f));
  }
  return (message.toolCalls ?? []).flatMap((call) => [
    ...readPathFacts(message, index, call),
    ...readStateFacts(message, index, call),
    ...readPlanFacts(message, index, call),
    ...readPatchFacts(message, index, call),
    ...readShellWriteFacts(message, index, call),
    ...readCommandFact(message, index, call, links.results.get(call.id)),
  ]);
}
