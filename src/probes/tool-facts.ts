import type { MessageEvent, ToolCall } from '../transcript/types.js';
import type { Fact } from './fact.js';
import { describeOutput } from './fact.js';
import { readOutputFacts } from './output-facts.js';
import { readPathArgs, readShellCommand } from './message-text.js';

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
const EXIT_STATUS = /\b(?:exit(?:ed)?(?: with)?(?:[ _](?:code|status))?|return ?code|returncode)\s*[:=]?\s*(-?\d+)\b/gi;
const FAILURE_MARK = /^\s*(?:FAILED|FAIL|ERROR)\b|Traceback \(most recent call last\)|^\s*(?:[\w.]+)?(?:Error|Exception):/m;

/** The exit status an output reports (the last one), if any. */
function readExitStatus(output: string): number | undefined {
  const matches = [...output.matchAll(EXIT_STATUS)];
  const last = matches[matches.length - 1]?.[1];
  return last === undefined ? undefined : Number(last);
}

function isWorthyCommand(command: string): boolean {
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
    hintSources: [
      message.text,
      Object.values(call.args)
        .filter((v): v is string => typeof v === 'string' && v !== answer)
        .join('\n'),
    ],
  }));
}

function readCommandFact(message: MessageEvent, index: number, call: ToolCall, output: MessageEvent | undefined): Fact[] {
  const command = readShellCommand(call);
  if (command === undefined || !isWorthyCommand(command)) return [];
  const outputText = output?.text ?? '';
  const status = readExitStatus(outputText);
  const isFailing = (status !== undefined && status !== 0) || FAILURE_MARK.test(outputText);
  const exit = status === undefined ? '' : ` (exit code ${status})`;
  if (isFailing) {
    return [
      {
        kind: 'continuation',
        answer: command,
        isStructured: true,
        index,
        question: `Which command failed${exit} when the agent ran it with \`${call.name}\`?`,
        hintSources: [outputText, message.text],
      },
    ];
  }
  return [
    {
      kind: 'recall',
      answer: command,
      isStructured: true,
      index,
      question: `Which command did the agent run with \`${call.name}\`${exit}?`,
      hintSources: [message.text, outputText],
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
    return readOutputFacts(message.text, index, source).filter((f) => !argPaths.has(f.answer));
  }
  return (message.toolCalls ?? []).flatMap((call) => [
    ...readPathFacts(message, index, call),
    ...readCommandFact(message, index, call, links.results.get(call.id)),
  ]);
}
