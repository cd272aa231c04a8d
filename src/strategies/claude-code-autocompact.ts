import { z } from 'zod';
import type { ContextMessage, TranscriptEvent } from '../transcript/types.js';
import type { Strategy, StrategyEnv } from './types.js';
import { applyToHistory, createHistory, leadingSystem, type History } from './helpers/history.js';
import { requestSummary } from './helpers/summary-call.js';
import { newestUserIndex } from './helpers/message-units.js';
import { truncateToTokens } from './helpers/text-cuts.js';

const options = z.strictObject({
  maxOutputTokens: z.number().int().positive().default(32_000).describe("the model's maximum output; the reserve is min(this, 20,000)"),
  bufferTokens: z.number().int().min(0).default(13_000).describe('safety buffer below the window minus the output reserve'),
  summaryTokens: z.number().int().positive().default(8192).describe('output budget of the summary (at most a quarter of the window)'),
  restoreFiles: z.number().int().min(0).default(5).describe('how many recently read or edited files are re-injected after a compaction'),
  fileTokens: z.number().int().positive().default(5000).describe('token cap of each re-injected file'),
  maxFailures: z.number().int().min(1).default(3).describe('consecutive failed compactions after which auto-compaction stops'),
  useRecordedUsage: z
    .boolean()
    .default(false)
    .describe(
      "trigger on the larger of the counted context and the input tokens the agent recorded (as Claude Code reads its last response's usage), until the first compaction",
    ),
});

export type Options = z.infer<typeof options>;

export interface State extends History {
  options: Options;
  compactions: number;
  failures: number;
  /** Input + output tokens of the last recorded assistant response (the agent's own measure). */
  recorded: number;
}

/** The trigger: window − min(max output, 20,000) − buffer (167,000 tokens, 83.5 %, of a 200k window). */
export const autocompactLimit = (opts: Options, window: number): number => window - Math.min(opts.maxOutputTokens, 20_000) - opts.bufferTokens;

const AUTOCOMPACT_PROMPT = [
  'Your task is to summarize the conversation so far so that work can continue without it.',
  'Write these sections:',
  '1. Primary request and intent: everything the user asked for, in detail.',
  '2. Key technical concepts.',
  '3. Files and code: each file read, changed or created, why, and the important snippets.',
  '4. Errors and fixes: every error met and how it was fixed, with user feedback.',
  '5. Problem solving: what was solved and what is still being worked out.',
  '6. All user messages that are not tool results, verbatim where short.',
  '7. Pending tasks.',
  '8. Current work: precisely what was being done just before this summary.',
  '9. Next step, in line with the most recent request.',
].join('\n');

const FILE_TOOLS = /^(read|edit|write|multiedit|read_file|write_file|edit_file|str_replace_based_edit_tool|replace)$/i;

/**
 * Claude Code's auto-compact: near the window the model writes a sectioned summary, the history is
 * replaced by it, and the files the agent was working on are re-read into the context (here: their
 * latest recorded content), as the agent re-attaches them.
 */
export const claudeCodeAutocompact: Strategy<Options, State> = {
  name: 'claude-code-autocompact',
  description:
    "Claude Code's auto-compact: at the window minus min(max output, 20,000) minus a 13,000 buffer (83.5 % of 200k) the model writes a sectioned summary that replaces the history, then up to 5 recently read or edited files (5,000 tokens each) are re-injected; auto-compaction stops after 3 consecutive failures.",
  options,
  init: (opts) => ({ ...createHistory(), options: opts, compactions: 0, failures: 0, recorded: 0 }),
  observe(event: TranscriptEvent, state) {
    applyToHistory(state, event);
    if (event.type === 'message' && event.role === 'assistant' && event.usage?.input !== undefined)
      state.recorded = event.usage.input + (event.usage.output ?? 0);
  },
  async prepare(state, env) {
    const counted = env.countMessages(state.messages);
    const measured = state.options.useRecordedUsage && state.compactions === 0 ? Math.max(counted, state.recorded) : counted;
    const limit = autocompactLimit(state.options, env.window);
    if (measured < limit || state.failures >= state.options.maxFailures) return [...state.messages];
    env.emit({
      action: 'trigger',
      reason: `context of ${measured} tokens reached ${limit}`,
      tokensBefore: counted,
      tokensAfter: counted,
      ...(measured !== counted ? { detail: 'measured on the recorded usage' } : {}),
    });
    const ok = await compact(state, env, counted);
    state.failures = ok ? 0 : state.failures + 1;
    if (state.failures >= state.options.maxFailures) {
      env.emit({
        action: 'note',
        reason: `${state.failures} consecutive failed compactions: auto-compact disabled`,
        tokensBefore: counted,
        tokensAfter: counted,
      });
    }
    return [...state.messages];
  },
  thresholds: (opts, window) => [{ label: 'autocompact', tokens: autocompactLimit(opts, window) }],
};

async function compact(state: State, env: StrategyEnv, before: number): Promise<boolean> {
  const summary = await requestSummary(env, {
    instruction: AUTOCOMPACT_PROMPT,
    messages: [...state.messages],
    maxOutputTokens: Math.min(state.options.summaryTokens, Math.floor(env.window / 4)),
    purpose: 'summary',
    reason: 'autocompact summary',
    shrinkOnOverflow: true,
  });
  if (!summary.ok) return false;
  const n = state.compactions + 1;
  const system = leadingSystem(state.messages);
  const text = `This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n${summary.text}`;
  const rebuilt: ContextMessage[] = [
    ...system,
    { type: 'message', id: `autocompact-summary-${n}`, role: 'user', text, synthetic: 'claude-code-autocompact summary' },
    ...recentFiles(state.messages, state.options, env, n),
  ];
  const user = newestUserIndex(state.messages);
  if (user >= 0) rebuilt.push(state.messages[user] as ContextMessage);
  const after = env.countMessages(rebuilt);
  if (after >= before) {
    env.emit({
      action: 'note',
      reason: 'compacted history not smaller; kept the history',
      tokensBefore: before,
      tokensAfter: before,
      detail: `compacted: ${after} tokens`,
    });
    return false;
  }
  state.messages = rebuilt;
  state.compactions = n;
  env.emit({
    action: 'compact',
    reason: 'history replaced by the autocompact summary',
    tokensBefore: before,
    tokensAfter: after,
    detail: `${rebuilt.filter((m) => m.synthetic === 'claude-code-autocompact file').length} files re-injected`,
  });
  return true;
}

/** The latest content of up to `restoreFiles` files the agent read or edited, newest first. */
function recentFiles(messages: readonly ContextMessage[], opts: Options, env: StrategyEnv, n: number): ContextMessage[] {
  const results = new Map(messages.filter((m) => m.role === 'tool' && m.toolCallId !== undefined).map((m) => [m.toolCallId as string, m.text]));
  const files: ContextMessage[] = [];
  const seen = new Set<string>();
  for (let i = messages.length - 1; i >= 0 && files.length < opts.restoreFiles; i--) {
    for (const call of [...(messages[i]?.toolCalls ?? [])].reverse()) {
      const path = call.args.file_path ?? call.args.path ?? call.args.absolute_path;
      if (!FILE_TOOLS.test(call.name) || typeof path !== 'string' || seen.has(path) || files.length >= opts.restoreFiles) continue;
      const content = results.get(call.id);
      if (content === undefined || content.trim() === '') continue;
      seen.add(path);
      const body = truncateToTokens(content, opts.fileTokens, env.count);
      files.push({
        type: 'message',
        id: `autocompact-file-${n}-${files.length}`,
        role: 'user',
        text: `Re-read after compaction: ${path}\n${body}`,
        synthetic: 'claude-code-autocompact file',
      });
    }
  }
  return files.reverse();
}
