import type { MessageEvent, ToolCall } from '../transcript/types.js';
import type { Fact } from './fact.js';
import { capText } from './fact.js';
import { readPathArgs, readShellCommand } from './message-text.js';
import { isFailingOutput, isWorthyCommand } from './tool-facts.js';

/**
 * Decisions and next steps read from the structure of a session, in any language: decision-facts.ts
 * reads them from English (and cjk-decision-facts.ts from Chinese) sentences, so a session written
 * in French gave none (a French Codex session: 2 kinds of probe). Two rules, both on tool calls:
 *
 * - *The stated next action*: an assistant message that writes something and then calls a tool
 *   said, in its own words, what it was about to do; the call is what it did. Asked as "what did
 *   the agent turn to right after writing «…»", the answer the call's file or command
 *   (continuation).
 * - *A command's outcome and what the agent chose after it*: after a command that failed, the next
 *   different command the agent ran within RECOVERY_WINDOW of its calls (decision).
 *
 * generate.ts asks these only for the kinds the language rules found nothing of, so an English
 * session's probes do not change.
 */
const RECOVERY_WINDOW = 3;
const EXCERPT_WORDS = 12;

/** The file or command a call acts on, if it names one worth asking about. */
function targetOf(call: ToolCall): string | undefined {
  const command = readShellCommand(call);
  if (command !== undefined) return isWorthyCommand(command) ? command : undefined;
  return readPathArgs(call)[0];
}

/** The last sentence of what an assistant wrote before its calls, cut to a few words. */
function statedAction(text: string): string | undefined {
  const sentences = text
    .split(/(?<=[.!?。！？:：])\s*|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const last = sentences[sentences.length - 1];
  if (last === undefined) return undefined;
  const words = last.split(/\s+/);
  // A sentence of one word (`Ok.`) states nothing; CJK text has no spaces and is cut by length.
  if (words.length < 3 && last.length < 12) return undefined;
  return capText(words.slice(0, EXCERPT_WORDS).join(' '), 90);
}

function readNextAction(message: MessageEvent, index: number): Fact[] {
  const call = message.toolCalls?.[0];
  if (message.role !== 'assistant' || call === undefined) return [];
  const stated = statedAction(message.text);
  const answer = targetOf(call);
  if (stated === undefined || answer === undefined || stated.includes(answer)) return [];
  return [
    {
      kind: 'continuation',
      answer,
      index,
      isStructured: true,
      question: `Which file or command did the agent turn to right after writing "${stated}"?`,
      hintSources: [message.text],
    },
  ];
}

/** The facts of structure (see above) over a whole session, in message order. */
export function readStructureFacts(messages: readonly MessageEvent[]): Fact[] {
  const results = new Map<string, MessageEvent>();
  for (const m of messages) if (m.role === 'tool' && m.toolCallId !== undefined && !results.has(m.toolCallId)) results.set(m.toolCallId, m);
  const shellCalls = messages.flatMap((message, index) =>
    (message.toolCalls ?? []).flatMap((call) => {
      const command = readShellCommand(call);
      return command === undefined ? [] : [{ index, command, tool: call.name, failed: isFailingOutput(results.get(call.id)?.text ?? '') }];
    }),
  );
  const recoveries = shellCalls.flatMap((failed, i): Fact[] => {
    if (!failed.failed || !isWorthyCommand(failed.command)) return [];
    const next = shellCalls.slice(i + 1, i + 1 + RECOVERY_WINDOW).find((c) => c.command !== failed.command && isWorthyCommand(c.command));
    if (next === undefined) return [];
    return [
      {
        kind: 'decision',
        answer: next.command,
        index: next.index,
        isStructured: true,
        // Not the failed command's words: a reader would find its line, not the answer's.
        question: `Which command did the agent choose after its \`${failed.tool}\` call failed?`,
        hintSources: [messages[next.index]?.text ?? ''],
      },
    ];
  });
  const actions = messages.flatMap((message, index) => readNextAction(message, index));
  return [...actions, ...recoveries].sort((a, b) => a.index - b.index);
}
