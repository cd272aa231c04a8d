import type { MessageEvent, ToolCall, TranscriptEvent } from '../transcript/types.js';

/** The message events of a transcript, in order. */
export function listMessages(events: readonly TranscriptEvent[]): MessageEvent[] {
  return events.filter((e): e is MessageEvent => e.type === 'message');
}

function renderArgs(args: Record<string, unknown>): string {
  // Raw strings, not JSON: JSON escapes quotes and backslashes, so a path or a command would no
  // longer be found verbatim in the text.
  return Object.entries(args)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

/** A tool call as searchable text: its name, then its arguments one per line. */
function renderToolCall(call: ToolCall): string {
  const args = renderArgs(call.args);
  return args === '' ? call.name : `${call.name}\n${args}`;
}

/**
 * The searchable text of a message: its text, its tool calls, and with `thinking` its thinking.
 * Use the same rendering for a context and for evidence, so that containment is exact.
 */
export function renderMessageText(message: MessageEvent, options: { thinking?: boolean } = {}): string {
  const parts: string[] = [];
  if (message.text !== '') parts.push(message.text);
  if (options.thinking === true && message.thinking !== undefined && message.thinking !== '') parts.push(message.thinking);
  for (const call of message.toolCalls ?? []) parts.push(renderToolCall(call));
  return parts.join('\n');
}

const SHELL_TOOL = /bash|shell|terminal|command|exec|powershell|^sh$|^cmd$|^run$/i;
const COMMAND_KEYS = ['command', 'cmd', 'script', 'commandLine', 'command_line'] as const;

/** Whether a tool runs shell commands (bash, shell, run_terminal_cmd, exec_command, …). */
function isShellTool(name: string): boolean {
  return SHELL_TOOL.test(name);
}

function joinArgv(argv: readonly unknown[]): string {
  const words = argv.filter((w): w is string => typeof w === 'string');
  // `["bash", "-lc", "npm test"]` runs its last word; anything else is an argv to join.
  const shell = words[0]?.replace(/^.*\//, '');
  if (words.length >= 3 && (shell === 'bash' || shell === 'sh' || shell === 'zsh') && /^-\w*c$/.test(words[1] ?? '')) {
    return words[words.length - 1] ?? '';
  }
  return words.join(' ');
}

/** The shell command of a shell tool call, or undefined when it carries none. */
export function readShellCommand(call: ToolCall): string | undefined {
  if (!isShellTool(call.name)) return undefined;
  for (const key of COMMAND_KEYS) {
    const value = call.args[key];
    const command = typeof value === 'string' ? value : Array.isArray(value) ? joinArgv(value) : undefined;
    if (command !== undefined && command.trim() !== '') return command.trim();
  }
  return undefined;
}

const PATH_KEY =
  /^(?:path|paths|file|files|filename|file_?path|filepath|file_?paths|target_?file|absolute_?path|relative_?path|notebook_?path|source|destination|dest|target)$/i;

/** Whether a string looks like a file path: a directory part or an extension, no spaces. */
export function isPathLike(value: string): boolean {
  if (value.length < 3 || value.length > 200 || /\s/.test(value) || /^[a-z]+:\/\//i.test(value)) return false;
  return /[/\\]/.test(value) || /^[\w.-]+\.[A-Za-z0-9]{1,8}$/.test(value);
}

/** File paths named in a tool call's path-like arguments (`path`, `file_path`, `files`, …). */
export function readPathArgs(call: ToolCall): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(call.args)) {
    if (!PATH_KEY.test(key)) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (typeof v === 'string' && isPathLike(v)) paths.push(v);
  }
  return paths;
}

// apply_patch envelopes name the files they touch: `*** Update File: src/a.py` (Codex's patch
// format, as a tool's argument or a shell heredoc).
export const PATCH_FILE = /\*\*\* (Add|Update|Delete) File: (\S+)/g;

/** The files an apply_patch envelope in a text adds, changes or deletes, and those it moves to. */
export function readPatchedFiles(text: string): string[] {
  if (!text.includes('*** ')) return [];
  const files = [...text.matchAll(PATCH_FILE)].map((m) => m[2] as string);
  for (const m of text.matchAll(/\*\*\* Move to: (\S+)/g)) files.push(m[1] as string);
  return files;
}

// A relative path with a directory and an extension; an absolute one with an extension or three
// or more parts (`/org/project` is as often a library id as a path). The look-behind keeps URLs
// (`https://host/a.js`) and parts of longer tokens out.
const PATH_IN_TEXT = /(?<![\w@:/.\\-])(?:(?:\.{1,2}\/|\/)?(?:[\w.-]+\/)+[\w-]+(?:\.[\w-]+)*\.[A-Za-z0-9]{1,8}\b|\/[\w.-]+\/[\w.-]+(?:\/[\w.-]+)+)/g;

/** File paths written in free text (tool output, messages), in order of appearance. */
export function findPathsInText(text: string): string[] {
  return [...text.matchAll(PATH_IN_TEXT)].map((m) => m[0]);
}
