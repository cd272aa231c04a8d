import type { MessageEvent, ToolCall } from '../transcript/types.js';
import type { Fact } from './fact.js';
import { isPathLike, readShellCommand } from './message-text.js';

/**
 * Files a shell command wrote, and what it left in them. Agents that work through a shell
 * (mini-swe-agent, SWE-agent, Codex's `shell`) create and change files with the shell itself: an
 * output redirection (`cat <<'EOF' > repro.py`, `echo … >> notes.md`), `tee`, or an in-place edit
 * (`sed -i`, `perl -pi`). Those are the session's artifacts as much as an `edit_file` call's, and
 * a continuing agent needs them: which files it made or changed, and their latest state.
 */

/** One file a command wrote: how, and the text it wrote when the command says it. */
interface ShellWrite {
  path: string;
  verb: 'write' | 'append to' | 'edit';
  /** The text the command put in the file: a heredoc's body, a substitution's replacement. */
  text?: string;
}

// `<<EOF`, `<< 'EOF'`, `<<-"END"`: the body runs to a line holding the delimiter alone.
const HEREDOC = /<<-?\s*(['"]?)([A-Za-z_]\w*)\1/g;
// `> file`, `>> file`, `1> file`; not `2>` (errors), `&>`, `>&2`, `<>`, nor a `=>` or `->` in an argument.
const REDIRECT = /(?<![\d&<=>-])(>>?)\s*(?![&>])([^\s;|&<>()'"`]+)/g;
const TEE = /(?:^|[|;&]\s*)tee\s+((?:-\w+\s+)*)([^\s;|&<>()'"`]+)/g;
// `sed -i`, `sed -i.bak`, `sed -E -i`, `perl -pi -e`, `perl -i -pe`.
const IN_PLACE = /^\s*(?:sed\s+(?:-[a-zA-Z]*\s+)*-[a-zA-Z]*i|perl\s+(?:-\w+\s+)*-\w*i)/;
// A substitution `s/old/new/flags` with any delimiter, quoted.
const SUBSTITUTION = /(?:^|[\s'";])s([/|#,:@])((?:\\.|(?!\1).)*)\1((?:\\.|(?!\1).)*)\1[gimpIe0-9]*/;
// A `sed` insert, append or change: `12i\ text`, `/re/a text`, `$a\text`.
const SED_TEXT = /(?:^|['"\s;])(?:\d+|\$|\/[^/]*\/)\s*[aic](?:\\|\s+)((?:\\.|[^'"\\])+)/;

/** Splits a command into its lines outside heredoc bodies, and the bodies by delimiter order. */
function splitHeredocs(command: string): { lines: string[]; bodies: string[] } {
  const lines: string[] = [];
  const bodies: string[] = [];
  const all = command.split('\n');
  for (let i = 0; i < all.length; i++) {
    const line = all[i] as string;
    lines.push(line);
    for (const match of line.matchAll(HEREDOC)) {
      const delimiter = match[2] as string;
      const body: string[] = [];
      while (i + 1 < all.length && (all[i + 1] as string).trim() !== delimiter) body.push(all[++i] as string);
      i += 1;
      bodies.push(body.join('\n'));
    }
  }
  return { lines, bodies };
}

/** The last path-like word of a command segment: the file an in-place edit works on. */
function lastPathWord(segment: string): string | undefined {
  const words = segment.trim().split(/\s+/).map(unquote);
  for (let i = words.length - 1; i > 0; i--) {
    const word = words[i] as string;
    if (word.startsWith('-')) continue;
    return isPathLike(word) && !isScratch(word) ? word : undefined;
  }
  return undefined;
}

function unquote(word: string): string {
  return word.replace(/^(['"])(.*)\1$/, '$2');
}

/** Where nothing of the work lands: `/dev/null`, a pipe to a device, a temporary file. */
function isScratch(path: string): boolean {
  return /^\/(?:dev|proc)\//.test(path) || path.startsWith('/tmp/');
}

/** The files a shell command writes, in order, each once (its last write). */
export function readShellWrites(command: string): ShellWrite[] {
  const { lines, bodies } = splitHeredocs(command);
  let body = 0;
  const writes = new Map<string, ShellWrite>();
  const add = (write: ShellWrite): void => {
    writes.delete(write.path);
    writes.set(write.path, write);
  };
  for (const line of lines) {
    const heredocs = [...line.matchAll(HEREDOC)].length;
    const text = heredocs > 0 ? bodies[body] : undefined;
    body += heredocs;
    // A heredoc's own `<<` is not a redirection; mask it before looking for `>`.
    const plain = line.replace(HEREDOC, ' ');
    for (const match of plain.matchAll(REDIRECT)) {
      const path = unquote(match[2] as string);
      if (!isPathLike(path) || isScratch(path)) continue;
      add({ path, verb: match[1] === '>>' ? 'append to' : 'write', ...(text !== undefined ? { text } : {}) });
    }
    for (const match of plain.matchAll(TEE)) {
      const path = match[2] as string;
      if (!isPathLike(path) || isScratch(path)) continue;
      add({ path, verb: /-\w*a/.test(match[1] ?? '') ? 'append to' : 'write', ...(text !== undefined ? { text } : {}) });
    }
    for (const segment of plain.split(/&&|\|\||;|\|/)) {
      if (!IN_PLACE.test(segment)) continue;
      const path = lastPathWord(segment);
      if (path === undefined) continue;
      const written = SUBSTITUTION.exec(segment)?.[3] ?? SED_TEXT.exec(segment)?.[1];
      add({ path, verb: 'edit', ...(written !== undefined ? { text: unescapeSed(written) } : {}) });
    }
  }
  return [...writes.values()];
}

/** A sed replacement or inserted text as it lands in the file: `\n` a new line, `\/` a `/`. */
function unescapeSed(text: string): string {
  return text.replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
}

/** The first line of written text that makes a fair answer: 3 to 80 characters, something specific. */
function firstLine(text: string): string | undefined {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line !== undefined && line.length >= 3 && line.length <= 80 && /[A-Za-z0-9]{2}/.test(line) ? line : undefined;
}

/** The artifacts of one shell call: each file it wrote, and (its latest state) what it wrote there. */
export function readShellWriteFacts(message: MessageEvent, index: number, call: ToolCall): Fact[] {
  const command = readShellCommand(call);
  if (command === undefined) return [];
  return readShellWrites(command).flatMap((write): Fact[] => {
    const name = write.path.split('/').pop() as string;
    const written = write.text === undefined ? undefined : firstLine(write.text);
    const facts: Fact[] = [
      {
        kind: 'artifact',
        answer: write.path,
        index,
        question: `Which file did the agent ${write.verb} with \`${call.name}\`?`,
        isStructured: true,
        // What was written says what the file is for; the agent's words around the call too.
        hintSources: [write.text ?? '', message.text],
      },
    ];
    if (written !== undefined) {
      facts.push({
        kind: 'artifact',
        answer: written,
        index,
        question: `What did the agent change \`${name}\` to with \`${call.name}\`?`,
        hintSources: [message.text],
        latest: true,
      });
    }
    return facts;
  });
}
