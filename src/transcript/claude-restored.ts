/**
 * What Claude Code re-attaches after its own compaction (issue 25 item 6): with the summary, the
 * request carries the contents of the files it had read most recently and its todo list, as
 * `<system-reminder>` messages the session log does not record (its JSONL holds the boundary and
 * the summary only). The importer rebuilds them from the log, so that `recorded` sends what the
 * agent saw (strategies/recorded.ts) and its retention and answers count them.
 *
 * Claude Code keeps a read-file state (the latest content of every file it read or wrote) and,
 * after compacting, restores the most recently used files: at most 5, each up to 5,000 tokens,
 * 50,000 tokens in all (its constants POST_COMPACT_MAX_FILES_TO_RESTORE,
 * POST_COMPACT_MAX_TOKENS_PER_FILE, POST_COMPACT_TOKEN_BUDGET; docs/probes.md). Tokens are
 * approximated at 4 characters, as the log's own counts are not per file.
 */

const MAX_FILES = 5;
const MAX_CHARS_PER_FILE = 5_000 * 4;
const MAX_CHARS = 50_000 * 4;

/** The read-file state of one session: path → latest content, the most recently used last. */
export interface FileState {
  files: Map<string, string>;
  /** Tool calls that read or write a file, by call id: the path and, for a write, the content. */
  pending: Map<string, { path: string; written?: string }>;
  /** The todo list as the last TodoWrite left it. */
  todos?: unknown;
}

export function createFileState(): FileState {
  return { files: new Map(), pending: new Map() };
}

/** Notes a tool call: `Read` and `Write` (and `MultiEdit`/`Edit`, whose result names the file) touch a file. */
export function noteToolCall(state: FileState, call: { id: string; name: string; input: Record<string, unknown> }): void {
  const path = call.input.file_path;
  if (typeof path !== 'string') return;
  if (call.name === 'Read') state.pending.set(call.id, { path });
  else if (call.name === 'Write' && typeof call.input.content === 'string') state.pending.set(call.id, { path, written: call.input.content });
}

/**
 * Notes a tool result: a successful read's output, or a write's content, becomes the file's latest
 * content; a read of part of a file adds its lines to those read before (`mergeNumberedLines`).
 */
export function noteToolResult(state: FileState, callId: string, text: string, isError: boolean): void {
  const call = state.pending.get(callId);
  if (call === undefined) return;
  state.pending.delete(callId);
  if (isError) return;
  const before = state.files.get(call.path);
  // Most recently used last: a file read again moves to the end.
  state.files.delete(call.path);
  state.files.set(call.path, call.written ?? (before === undefined ? text : mergeNumberedLines(before, text)));
}

// A line of Claude Code's Read output: its number, an arrow, the line (`   466→import os`).
const NUMBERED_LINE = /^\s*(\d+)→/;

/** The numbered lines a read starts with, and what follows them (Claude Code appends a reminder); undefined when it starts with none. */
function numberedLines(text: string): { lines: [number, string][]; after: string } | undefined {
  const all = text.split('\n');
  const lines: [number, string][] = [];
  let i = 0;
  for (; i < all.length; i++) {
    const number = NUMBERED_LINE.exec(all[i] as string)?.[1];
    if (number === undefined) break;
    lines.push([Number(number), all[i] as string]);
  }
  return lines.length === 0 ? undefined : { lines, after: all.slice(i).join('\n') };
}

/**
 * Two reads of one file as one: the numbered lines of both, by number, the newer read's where
 * both hold a line, then what follows the newer read's lines. Claude Code re-attaches the file,
 * not the last slice (`offset`, `limit`) the agent read of it. When either read does not start
 * with numbered lines (a written file, a notice), the newer one stands alone.
 */
function mergeNumberedLines(older: string, newer: string): string {
  const old = numberedLines(older);
  const fresh = numberedLines(newer);
  if (old === undefined || fresh === undefined) return newer;
  const merged = [...new Map([...old.lines, ...fresh.lines])].sort(([a], [b]) => a - b).map(([, line]) => line);
  return [...merged, ...(fresh.after === '' ? [] : [fresh.after])].join('\n');
}

/**
 * The messages Claude Code re-attaches after a compaction, in the words it uses, and the state
 * after it: only the restored files stay read (Claude Code clears the rest).
 */
export function restoreAfterCompaction(state: FileState): string[] {
  const restored: string[] = [];
  const kept = new Map<string, string>();
  let used = 0;
  for (const [path, content] of [...state.files].reverse()) {
    if (restored.length >= MAX_FILES) break;
    const text = content.length > MAX_CHARS_PER_FILE ? content.slice(0, MAX_CHARS_PER_FILE) : content;
    if (used + text.length > MAX_CHARS) break;
    used += text.length;
    kept.set(path, content);
    restored.push(
      `<system-reminder>\nCalled the Read tool with the following input: ${JSON.stringify({ file_path: path })}\n</system-reminder>\n` +
        `<system-reminder>\nResult of calling the Read tool: ${text}\n</system-reminder>`,
    );
  }
  state.files = new Map([...kept].reverse());
  if (state.todos !== undefined) {
    restored.push(
      `<system-reminder>\nThis is a reminder that your todo list is currently: ${JSON.stringify(state.todos)}. Continue on with the tasks at hand if applicable.\n</system-reminder>`,
    );
  }
  return restored;
}
