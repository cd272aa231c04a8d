import type { MessageEvent, ToolCall } from '../../transcript/types.js';
import { findPathsInText, readPatchedFiles, readPathArgs, readShellCommand } from '../message-text.js';
import { readShellWrites } from '../shell-writes.js';
import { MIN_SPECIFIC_LENGTH } from './specifics.js';

/**
 * Line numbers as needed facts (docs/probes.md, "Line numbers"). A bare `202` says nothing: it
 * matches anything in a context. A line number the agent addresses in a file (`sed -i '202i\ …'
 * fields.py`, `sed -n '330,355p' header.py`, `go.mod:3`) is a fact about that file, which a tool
 * printed in a numbered listing of it (`nl -ba`, `cat -n`, `grep -n`, a Read's `   3→go 1.23.0`).
 * Its fact is that listing's line as printed (`202\t        return result`): a context holds it
 * when it holds the listing that covers the line, and no bare number does. An edit of the file
 * after the listing makes its numbers stale: they no longer say where a line is.
 */

/** A numbered line as listings print it: the number, a tab, an arrow or a colon, the line. */
const NUMBERED_LINE = /^[ \t]*(\d{1,6})(?:\t|→|:)(.*)$/gm;
// A sed script's addresses: its first argument quoted, each command's first line number (`330,355p`, `808,810d`, `202i\`).
const SED_SCRIPT = /(?:^|[\s;&|(])sed\s+(?:-[A-Za-z]+\s+)*(['"])([^'"]*)\1/g;
const SED_ADDRESS = /(?:^|;)\s*(\d+)(?:,\d+)?\s*[A-Za-z={!]/g;
// `go.mod:3`, `src/app.py:120`: a file name with an extension, a colon, a line number.
const FILE_LINE = /(?<![\w./-])((?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z0-9]{1,8}):(\d{1,6})(?![\d:])/g;

/** The lines of one file a tool message listed, by number: each as printed, from its number on. */
export interface Listing {
  readonly file: string;
  readonly lines: ReadonlyMap<number, string>;
}

/** A line of a file a message addresses by its number. */
export interface LineReference {
  readonly file: string;
  readonly line: number;
}

/** Whether two names of files name the same one: equal, or one the other's tail after a `/`. */
export function isSameFile(a: string, b: string): boolean {
  const x = a.replace(/^\.\//, '');
  const y = b.replace(/^\.\//, '');
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

/** The files a call names: a shell command's paths, or a tool's path arguments. */
function filesOf(call: ToolCall): string[] {
  const command = readShellCommand(call);
  return command !== undefined ? [...new Set(findPathsInText(command))] : readPathArgs(call);
}

/**
 * The numbered listing a tool result holds of the one file its call named, or undefined. A line
 * whose text is shorter than MIN_SPECIFIC_LENGTH (a blank line, a `}`) is left out: its printed
 * form would not tell one listing from another.
 */
export function readListing(result: MessageEvent, call: ToolCall | undefined): Listing | undefined {
  const files = call === undefined ? [] : filesOf(call);
  if (files.length !== 1) return undefined;
  const lines = new Map<number, string>();
  for (const match of result.text.matchAll(NUMBERED_LINE)) {
    if ((match[2] as string).trim().length >= MIN_SPECIFIC_LENGTH) lines.set(Number(match[1]), match[0].trimStart());
  }
  return lines.size === 0 ? undefined : { file: files[0] as string, lines };
}

/**
 * The lines an assistant message addresses by number: the first line of each command of a sed
 * script on a single file, and each `file:line` it writes. Line 1 is left out: it is where every
 * file starts, known without the session.
 */
export function readLineReferences(message: MessageEvent): LineReference[] {
  const found: LineReference[] = [];
  const add = (file: string, line: number): void => {
    if (line > 1 && !found.some((r) => r.line === line && isSameFile(r.file, file))) found.push({ file, line });
  };
  const texts = [message.text];
  for (const call of message.toolCalls ?? []) {
    const command = readShellCommand(call);
    if (command !== undefined) {
      texts.push(command);
      const files = filesOf(call);
      if (files.length !== 1) continue;
      for (const script of command.matchAll(SED_SCRIPT)) {
        for (const address of (script[2] as string).matchAll(SED_ADDRESS)) add(files[0] as string, Number(address[1]));
      }
    } else texts.push(...Object.values(call.args).filter((v): v is string => typeof v === 'string'));
  }
  for (const text of texts) for (const match of text.matchAll(FILE_LINE)) add(match[1] as string, Number(match[2]));
  return found;
}

/**
 * The files a call changes: those a shell command writes (`sed -i`, a redirection), those an
 * apply_patch envelope names (`*** Update File: a.py`, as an argument or a heredoc), or for another
 * tool, the files it names when it also carries text to write (a string, at any depth of its
 * arguments, with a line break, or two strings besides the path: an edit's old and new text).
 */
export function readChangedFiles(call: ToolCall): string[] {
  const patched = stringsIn(call.args).flatMap(readPatchedFiles);
  const command = readShellCommand(call);
  if (command !== undefined) return [...readShellWrites(command).map((w) => w.path), ...patched];
  const paths = readPathArgs(call);
  const texts = stringsIn(call.args).filter((v) => !paths.includes(v));
  return [...(texts.length >= 2 || texts.some((t) => t.includes('\n')) ? paths : []), ...patched];
}

/** Every string a value holds, nested ones too (a `MultiEdit`'s `edits[].old_string`). */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  return typeof value === 'object' && value !== null ? Object.values(value).flatMap(stringsIn) : [];
}
