import type { MessageEvent, TaskEventSource, ToolCall, TranscriptEvent } from '../transcript/types.js';
import type { LikeFit } from './fit-types.js';
import { clip, SUMMARY_CHARS, TITLE_CHARS } from '../transcript/tasks/derive.js';
import { tokensOf } from './observe.js';

const SHELL = /bash|shell|terminal|command|exec/i;

/** A message while the session is written: its text can still take planted lines. */
export interface Draft {
  role: MessageEvent['role'];
  text: string;
  thinking?: string;
  /** For an assistant message: one command per tool call (the first takes planted facts). */
  commands?: string[];
  /** For an assistant message: per call, the content it writes ('' for none). */
  contents?: string[];
  reasoningTokens?: number;
  toolNames?: string[];
  /** For an assistant message: its step; for others, the step from which the context holds it. */
  step: number;
  /** For a tool result: the index of its call's message in `drafts`, and which of its calls. */
  callOf?: number;
  callNumber?: number;
  compaction?: string;
  /** For an assistant message: what the agent sent with the results before it unlogged, written after its text (withUnlogged). */
  unlogged?: string;
  /** A task event here: the task with this number starts or completes. */
  task?: { n: number; status: 'in_progress' | 'completed' };
}

/** The drafts as canonical events, with recorded usage (hidden tokens + logged tokens, reset by a compaction). */
export function toEvents(fit: LikeFit, drafts: readonly Draft[], hidden: number): TranscriptEvent[] {
  const asText = fit.toolsAsText > 0.5;
  const events: TranscriptEvent[] = [];
  let tokens = 0;
  let calls = 0;
  const callIds = new Map<number, string[]>();
  const titles = new Map<number, string>();
  drafts.forEach((draft, index) => {
    const id = `m${String(index + 1).padStart(5, '0')}`;
    if (draft.task !== undefined) {
      const source = Object.keys(fit.task.source)[0] as TaskEventSource | undefined;
      const lastOf = (role: string): string | undefined =>
        events.findLast((e): e is MessageEvent => e.type === 'message' && e.role === role && e.text.trim() !== '')?.text;
      // Titled and summed up as the importers derive them (transcript/tasks/derive.ts): a user
      // request's task by the request's first line, a plan item's by its number; a tombstone
      // that keeps them is as long as on a real log.
      if (!titles.has(draft.task.n)) {
        const request = source === 'user-turns' ? lastOf('user') : undefined;
        titles.set(draft.task.n, request === undefined ? `task ${draft.task.n}` : clip(request, TITLE_CHARS));
      }
      const last = lastOf('assistant');
      const summary = draft.task.status === 'completed' && last !== undefined ? { resultSummary: clip(last, SUMMARY_CHARS) } : {};
      events.push({
        type: 'task',
        id: `task-${draft.task.n}`,
        status: draft.task.status,
        title: titles.get(draft.task.n) ?? `task ${draft.task.n}`,
        ...summary,
        ...(source !== undefined ? { source } : {}),
      });
      return;
    }
    if (draft.compaction !== undefined) {
      events.push({ type: 'compaction', id: `compaction-${id}`, summary: draft.compaction, tokensBefore: hidden + tokens });
      tokens = tokensOf(draft.compaction);
      return;
    }
    if (draft.role === 'assistant') {
      const toolCalls = (draft.commands ?? []).map((command, c) =>
        toolCallOf(`call-${++calls}`, draft.toolNames?.[c] ?? 'bash', command, draft.contents?.[c] ?? '', asText),
      );
      callIds.set(
        index,
        toolCalls.map((call) => call.id),
      );
      const written = (draft.contents ?? []).filter((c) => c !== '').map((c) => `\ncat <<'EOF' > out.txt\n${c}\nEOF`);
      const block = asText && draft.commands !== undefined ? `\n\n\`\`\`bash\n${draft.commands.join(' && ')}${written.join('')}\n\`\`\`` : '';
      const text = `${draft.text}${block}${draft.unlogged === undefined ? '' : `\n\n${draft.unlogged}`}`;
      const output = tokensOf(text) + tokensOf(draft.thinking ?? '') + (toolCalls.length === 0 ? 0 : tokensOf(JSON.stringify(toolCalls)));
      events.push(
        message(id, draft, text, fit, {
          ...(toolCalls.length > 0 ? { toolCalls } : {}),
          ...(draft.thinking !== undefined && draft.thinking !== '' ? { thinking: draft.thinking } : {}),
          ...(draft.reasoningTokens !== undefined ? { reasoningTokens: draft.reasoningTokens } : {}),
          usage: { input: hidden + tokens, output },
        }),
      );
      tokens += output;
      return;
    }
    const callId = draft.callOf !== undefined ? callIds.get(draft.callOf)?.[draft.callNumber ?? 0] : undefined;
    if (draft.role === 'tool' && callId === undefined) return;
    const toolName = drafts[draft.callOf ?? -1]?.toolNames?.[draft.callNumber ?? 0] ?? 'bash';
    events.push(message(id, draft, draft.text, fit, callId !== undefined ? { toolCallId: callId, toolName } : {}));
    tokens += tokensOf(draft.text);
  });
  return events;
}

/** A shell tool (or any tool of an agent that calls tools in plain text) takes the command; another tool a path. */
function toolCallOf(id: string, name: string, command: string, content: string, asText: boolean): ToolCall {
  const written = content === '' ? {} : { content };
  if (SHELL.test(name) || asText) return { id, name, args: { command, ...written } };
  return { id, name, args: { path: command.split(' ').at(-1) ?? '', query: command, ...written } };
}

function message(id: string, draft: Draft, text: string, fit: LikeFit, extra: Partial<MessageEvent>): MessageEvent {
  const sentAsText = fit.toolsAsText > 0.5 && (draft.role === 'assistant' || draft.role === 'tool');
  return { type: 'message', id, role: draft.role, text, ...extra, dialect: fit.dialect, ...(sentAsText ? { sentAsText: true } : {}) };
}
