/**
 * What Claude Code re-attaches after its own compaction (issue 25 item 6): with the summary, the
 * request carries the contents of the files it had read or written most recently and its todo
 * list, as `<system-reminder>` messages the session log does not record (its JSONL holds the
 * boundary and the summary only). The importer rebuilds them from the log, so that `recorded`
 * sends what the agent saw (strategies/recorded.ts) and its retention and answers count them.
 *
 * Claude Code keeps a read-file state (the latest content of every file it read, wrote or edited:
 * its Write and Edit tools update it as Read does) and, after compacting, restores the most
 * recently used files, each up to 5,000 tokens, 50,000 tokens in all (POST_COMPACT_MAX_TOKENS_PER_FILE,
 * POST_COMPACT_TOKEN_BUDGET; docs/probes.md). How many files depends on the version:
 * - Claude Code 2.x, whose logs record a `compact_boundary`, restores at most 5
 *   (POST_COMPACT_MAX_FILES_TO_RESTORE): `BOUNDED_MAX_FILES`.
 * - Claude Code 1.0.8x, whose logs record no boundary, restored more: after the compaction at step
 *   107 of swordintel-54bc4295 the recorded prompt grew by 40.0k tokens beyond its summary and
 *   system prefix, where the 5 files used last make 28.5k and the 8 used last 37.9k. So for such
 *   logs every file within the budget is rebuilt, most recent first, and the replay keeps as many
 *   as the recorded usage after the compaction has room for (replay/hidden-prefix.ts `fitRestored`).
 * Tokens are approximated at 4 characters, as the log's own counts are not per file.
 */

/** Files Claude Code 2.x re-attaches at most (its POST_COMPACT_MAX_FILES_TO_RESTORE). */
export const BOUNDED_MAX_FILES = 5;
const MAX_CHARS_PER_FILE = 5_000 * 4;
const MAX_CHARS = 50_000 * 4;

interface Edit {
  readonly from: string;
  readonly to: string;
}

/** The read-file state of one session: path → latest content, the most recently used last. */
export interface FileState {
  files: Map<string, string>;
  /** Tool calls that read, write or edit a file, by call id: the path and, for a write, the content, for an edit its replacements. */
  pending: Map<string, { path: string; written?: string; edits?: readonly Edit[] }>;
  /** The todo list as the last TodoWrite left it. */
  todos?: unknown;
}

export function createFileState(): FileState {
  return { files: new Map(), pending: new Map() };
}

/** Notes a tool call: `Read`, `Write`, `Edit` and `MultiEdit` touch a file. */
export function noteToolCall(state: FileState, call: { id: string; name: string; input: Record<string, unknown> }): void {
  const path = call.input.file_path;
  if (typeof path !== 'string') return;
  if (call.name === 'Read') state.pending.set(call.id, { path });
  else if (call.name === 'Write' && typeof call.input.content === 'string') state.pending.set(call.id, { path, written: call.input.content });
  else if (call.name === 'Edit' || call.name === 'MultiEdit') state.pending.set(call.id, { path, edits: editsOf(call.input) });
}

/** The replacements of an `Edit` (`old_string` → `new_string`) or a `MultiEdit` (`edits[]`). */
function editsOf(input: Record<string, unknown>): Edit[] {
  const list = Array.isArray(input.edits) ? (input.edits as unknown[]) : [input];
  return list.flatMap((edit) => {
    if (typeof edit !== 'object' || edit === null) return [];
    const { old_string: from, new_string: to } = edit as Record<string, unknown>;
    return typeof from === 'string' && typeof to === 'string' && from !== '' ? [{ from, to }] : [];
  });
}

/**
 * A file's content after an edit: each replacement made where its old text stands verbatim (a
 * written file; a read's numbered lines hold a one-line old text verbatim, not a longer one, which
 * stays as it was read). Claude Code re-reads the file from disk; the log holds only this much.
 */
function applyEdits(content: string, edits: readonly Edit[]): string {
  return edits.reduce((text, { from, to }) => (text.includes(from) ? text.replace(from, () => to) : text), content);
}

/**
 * Notes a tool result: a successful read's output, or a write's content, becomes the file's latest
 * content; a read of part of a file adds its lines to those read before (`mergeNumberedLines`); an
 * edit changes the content known (`applyEdits`), and a file edited whose content the log never
 * showed (read before the log begins) stays unknown: nothing to re-attach.
 */
export function noteToolResult(state: FileState, callId: string, text: string, isError: boolean): void {
  const call = state.pending.get(callId);
  if (call === undefined) return;
  state.pending.delete(callId);
  if (isError) return;
  const before = state.files.get(call.path);
  if (call.edits !== undefined && before === undefined) return;
  // Most recently used last: a file read, written or edited again moves to the end.
  state.files.delete(call.path);
  state.files.set(call.path, latestContent(call, before, text));
}

function latestContent(call: { written?: string; edits?: readonly Edit[] }, before: string | undefined, text: string): string {
  if (call.written !== undefined) return call.written;
  if (before === undefined) return text;
  return call.edits !== undefined ? applyEdits(before, call.edits) : mergeNumberedLines(before, text);
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
 * after it: only the restored files stay read (Claude Code clears the rest). `maxFiles` caps how
 * many files (`BOUNDED_MAX_FILES` for a log that records its compact boundary); without it every
 * file within the budget comes back, for the replay to fit to the recorded usage.
 */
export function restoreAfterCompaction(state: FileState, maxFiles = Number.POSITIVE_INFINITY): string[] {
  // The todo list first: it always comes back, and the replay fits the files to the usage from the oldest.
  const restored: string[] =
    state.todos === undefined
      ? []
      : [
          `<system-reminder>\nThis is a reminder that your todo list is currently: ${JSON.stringify(state.todos)}. Continue on with the tasks at hand if applicable.\n</system-reminder>`,
        ];
  let files = 0;
  const kept = new Map<string, string>();
  let used = 0;
  for (const [path, content] of [...state.files].reverse()) {
    if (files >= maxFiles) break;
    const text = content.length > MAX_CHARS_PER_FILE ? content.slice(0, MAX_CHARS_PER_FILE) : content;
    if (used + text.length > MAX_CHARS) break;
    used += text.length;
    kept.set(path, content);
    files++;
    restored.push(
      `<system-reminder>\nCalled the Read tool with the following input: ${JSON.stringify({ file_path: path })}\n</system-reminder>\n` +
        `<system-reminder>\nResult of calling the Read tool: ${text}\n</system-reminder>`,
    );
  }
  state.files = new Map([...kept].reverse());
  return restored;
}
