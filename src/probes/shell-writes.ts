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
// A substitution `s/old/new/flags` with any delimiter (a sed or perl script, quotes already read).
const SUBSTITUTION = /(?:^|[\s;{])s([/|#,:@])((?:\\.|(?!\1).)*)\1((?:\\.|(?!\1).)*)\1[gimpIe0-9]*/;
// A `sed` insert, append or change: `12i\ text`, `/re/a text`, `$a\text`.
const SED_TEXT = /^(?:\d+|\$|\/[^/]*\/)\s*[aic](?:\\|\s+)((?:\\.|[^\\])+)/;

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

/** A piece of a command line as the shell reads it: a word (quotes removed), a redirection, or a separator. */
type ShellToken = { kind: 'word'; text: string; quoted: boolean } | { kind: 'redirect'; op: '>' | '>>' | 'other' } | { kind: 'separator' };

/**
 * The tokens of one command line, read as a shell does for what matters here: quotes group a word
 * (`"s/a;b/c/"` is one word, its `;` no separator), `;`, `|`, `&` separate commands, `>` and `>>`
 * redirect the output (`2>`, `&>`, `>&2`, `<`, `<<` redirect something else).
 */
function shellTokens(line: string): ShellToken[] {
  const tokens: ShellToken[] = [];
  let word = '';
  let inWord = false;
  let quoted = false;
  const end = (): void => {
    if (inWord) tokens.push({ kind: 'word', text: word, quoted });
    word = '';
    inWord = false;
    quoted = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      const stop = close < 0 ? line.length : close;
      word += c === '"' ? line.slice(i + 1, stop).replace(/\\(["\\$`])/g, '$1') : line.slice(i + 1, stop);
      inWord = true;
      quoted = true;
      i = stop;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i] as string;
      inWord = true;
    } else if (/\s/.test(c)) {
      end();
    } else if (c === '&' && line[i + 1] === '>') {
      // `&> log`, `&>> log`: both streams, a log rather than a piece of the work.
      end();
      tokens.push({ kind: 'redirect', op: 'other' });
      i += line[i + 2] === '>' ? 2 : 1;
    } else if (c === ';' || c === '|' || c === '&' || c === '(' || c === ')') {
      end();
      tokens.push({ kind: 'separator' });
      while (line[i + 1] === c) i++;
    } else if (c === '>' || c === '<') {
      const fd = inWord && /^\d+$/.test(word) && !quoted ? word : undefined;
      if (fd !== undefined) {
        word = '';
        inWord = false;
      } else end();
      const append = c === '>' && line[i + 1] === '>';
      if (append || (c === '<' && line[i + 1] === '<')) i++;
      if (line[i + 1] === '&') {
        // `>&2`: to another stream.
        tokens.push({ kind: 'redirect', op: 'other' });
        i++;
        while (/\d|-/.test(line[i + 1] ?? '')) i++;
        continue;
      }
      const toOutput = c === '>' && (fd === undefined || fd === '1');
      tokens.push({ kind: 'redirect', op: toOutput ? (append ? '>>' : '>') : 'other' });
    } else {
      word += c;
      inWord = true;
    }
  }
  end();
  return tokens;
}

/** A file a command wrote worth a probe: a path, no variable, nothing scratch. */
function isArtifactPath(word: string): boolean {
  return isPathLike(word) && !/[$*?{}]/.test(word) && !isScratch(word);
}

/** Where nothing of the work lands: `/dev/null`, a pipe to a device, a temporary file. */
function isScratch(path: string): boolean {
  return /^\/(?:dev|proc)\//.test(path) || path.startsWith('/tmp/');
}

/** The words of each command of a line (separators split them), redirection targets left out. */
function commandsOf(tokens: readonly ShellToken[]): string[][] {
  const commands: string[][] = [[]];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as ShellToken;
    if (token.kind === 'separator') commands.push([]);
    else if (token.kind === 'redirect') i += tokens[i + 1]?.kind === 'word' ? 1 : 0;
    else commands[commands.length - 1]?.push(token.text);
  }
  return commands.filter((words) => words.length > 0);
}

/** An in-place edit (`sed -i`, `sed --in-place`, `perl -pi -e`): the file it edits, and what its script writes. */
function readInPlace(words: readonly string[]): ShellWrite | undefined {
  const [program, ...args] = words;
  const options = args.filter((w) => w.startsWith('-'));
  const inPlace =
    program === 'sed'
      ? options.some((o) => /^-[a-zA-Z]*i/.test(o) || o.startsWith('--in-place'))
      : program === 'perl' && options.some((o) => /^-[a-zA-Z]*i/.test(o));
  if (!inPlace) return undefined;
  // The script: the word after `-e` (`-pie` ends in it too), else sed's first operand.
  let script: string | undefined;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (/^-[a-zA-Z]*e$/.test(word)) script ??= args[++i];
    else if (!word.startsWith('-')) operands.push(word);
  }
  if (script === undefined && program === 'sed') script = operands.shift();
  const path = operands.at(-1);
  if (path === undefined || !isArtifactPath(path)) return undefined;
  const written = script === undefined ? undefined : (SUBSTITUTION.exec(script)?.[3] ?? SED_TEXT.exec(script.trim())?.[1]);
  return { path, verb: 'edit', ...(written !== undefined ? { text: unescapeSed(written) } : {}) };
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
    // A heredoc's own `<<EOF` is no redirection of output: its delimiter is not a file.
    const tokens = shellTokens(line.replace(HEREDOC, ' '));
    tokens.forEach((token, i) => {
      const target = tokens[i + 1];
      if (token.kind !== 'redirect' || token.op === 'other' || target?.kind !== 'word' || !isArtifactPath(target.text)) return;
      add({ path: target.text, verb: token.op === '>>' ? 'append to' : 'write', ...(text !== undefined ? { text } : {}) });
    });
    for (const words of commandsOf(tokens)) {
      if (words[0] === 'tee') {
        const append = words.some((w) => /^-[a-zA-Z]*a/.test(w) || w === '--append');
        for (const path of words.slice(1).filter((w) => !w.startsWith('-') && isArtifactPath(w))) {
          add({ path, verb: append ? 'append to' : 'write', ...(text !== undefined ? { text } : {}) });
        }
      }
      const edit = readInPlace(words);
      if (edit !== undefined) add(edit);
    }
  }
  return [...writes.values()];
}

/** A sed replacement or inserted text as it lands in the file: `\n` a new line, `\/` a `/`. */
function unescapeSed(text: string): string {
  return text.replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
}

/** The first line of written text (past a shebang) that makes a fair answer: 3 to 80 characters, something specific. */
function firstLine(text: string): string | undefined {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    // A shebang (`#!/bin/bash`) says which interpreter, nothing of what the file is.
    .find((l) => l.length > 0 && !l.startsWith('#!'));
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
