import type { MessageEvent, ToolCall, Transcript } from '../../transcript/types.js';
import { listMessages, readShellCommand } from '../message-text.js';
import { findSpecifics, isNameChar, isSpecificName, MIN_SPECIFIC_LENGTH, unescapeForTokens, type FoundSpecific } from './specifics.js';
import { argumentValues, toolVocabulary } from './arguments.js';
import { sessionFileNames } from './files.js';
import { isSameFile, readChangedFiles, readLineReferences, readListing, type LineReference, type Listing } from './line-numbers.js';
import { SessionText } from './phrases.js';
import type { NeededKind, NeededUse } from './types.js';

/**
 * How many steps back a fact must have been seen last for its use to count as needed (docs/probes.md):
 * within the last ten model calls a fact is still at the tail of any context, and every strategy keeps it.
 */
export const DEFAULT_MIN_DISTANCE = 10;

/** A message as the extraction reads it: where it stands, its specifics, and its text to search. */
interface ReadMessage {
  readonly role: MessageEvent['role'];
  /** The first step whose context can hold the message (the step after the last assistant message at or before it). */
  readonly visibleFrom: number;
  /** For an assistant message: the step it completed. */
  readonly step: number;
  readonly specifics: readonly FoundSpecific[];
  /** The specifics and the shorter ones inside them (`fits/card.py` in `astropy/io/fits/card.py`): what a later use may have seen here. */
  readonly seen: readonly string[];
  /** What a later use is looked up in: the text and argument values, escapes as spaces. */
  readonly searchable: string;
  /** For a tool result: the numbered listing it holds of the one file its call named. */
  readonly listing?: Listing;
  /** For an assistant message: the lines of files it addresses by number, and the files its calls change. */
  readonly lineReferences: readonly LineReference[];
  readonly changed: readonly string[];
}

/** What the whole session says about its words: a tool's vocabulary slots, the files it names. */
interface SessionWords {
  readonly vocabulary: ReadonlySet<string>;
  readonly files: ReadonlySet<string>;
}

/**
 * What a message holds that a later one can use: a tool call's argument values (never its keys,
 * nor the values of a tool's own vocabulary, e.g. a todo status), a shell command whole, and the
 * text. Thinking is left out: what an agent used is what it wrote or called.
 */
function readMessage(message: MessageEvent, session: SessionWords, visibleFrom: number, step: number): ReadMessage {
  const parts: string[] = message.text === '' ? [] : [message.text];
  // A vocabulary value is no use, but the context holds it all the same: a background shell's id
  // polled at every step (`bash_id: d66418`) is seen at every step.
  const shown: string[] = [];
  const commands: FoundSpecific[] = [];
  for (const call of message.toolCalls ?? []) {
    parts.push(...argumentValues(call, session.vocabulary));
    shown.push(...argumentValues(call, NO_VOCABULARY).filter((v) => !parts.includes(v)));
    const command = readShellCommand(call);
    if (command !== undefined && !command.includes('\n') && command.length >= 10) commands.push({ value: command, kind: 'command' });
  }
  const joined = parts.join('\n');
  const found = findSpecifics(joined).map((s) =>
    s.kind === 'identifier' && s.value.includes('.') && session.files.has(s.value) ? { ...s, kind: 'path' as const } : s,
  );
  const specifics = [...commands, ...found.filter((s) => !commands.some((c) => c.value === s.value))];
  const shownSpecifics = shown.length === 0 ? [] : findSpecifics(shown.join('\n'));
  const seen = [...new Set([...specifics, ...shownSpecifics].flatMap((s) => innerForms(s.value)))];
  const searchable = unescapeForTokens(shown.length === 0 ? joined : [joined, ...shown].join('\n'));
  const assistant = message.role === 'assistant';
  return {
    role: message.role,
    visibleFrom,
    step,
    specifics,
    seen,
    searchable,
    lineReferences: assistant ? readLineReferences(message) : [],
    changed: assistant ? (message.toolCalls ?? []).flatMap(readChangedFiles) : [],
  };
}

const NO_VOCABULARY: ReadonlySet<string> = new Set();

/**
 * A specific and the shorter specifics it holds: the tails of a path (`io/card.py`, `card.py`) and
 * of a qualified name (`path.join`, `join` of `os.path.join`), and its heads (`os.path`).
 */
function innerForms(value: string): string[] {
  const forms = [value];
  for (const match of value.matchAll(/[/.]|::|->/g)) {
    const head = value.slice(0, match.index);
    const tail = value.slice(match.index + match[0].length);
    if (head.length >= MIN_SPECIFIC_LENGTH) forms.push(head);
    if (tail.length >= MIN_SPECIFIC_LENGTH) forms.push(tail);
  }
  return forms;
}

function readMessages(transcript: Transcript): ReadMessage[] {
  const messages = listMessages(transcript.events);
  const session: SessionWords = { vocabulary: toolVocabulary(messages), files: sessionFileNames(messages) };
  const calls = new Map<string, ToolCall>();
  let steps = 0;
  return messages.map((message) => {
    const step = steps;
    if (message.role === 'assistant') steps++;
    for (const call of message.toolCalls ?? []) calls.set(call.id, call);
    const read = readMessage(message, session, steps, step);
    if (message.role !== 'tool' || message.toolCallId === undefined) return read;
    const listing = readListing(message, calls.get(message.toolCallId));
    return listing === undefined ? read : { ...read, listing };
  });
}

/** A name, number or command: what an agent may know, or compose, without any session. */
function isKnowable(specific: FoundSpecific): boolean {
  return specific.kind !== 'path' && specific.kind !== 'quoted';
}

/** Whether a text holds a value with no letter, digit or underscore running into it on either side. */
function holdsAlone(text: string, value: string): boolean {
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
    if (!isNameChar(text[at - 1]) && !isNameChar(text[at + value.length])) return true;
  }
  return false;
}

/** The kind of a use: a specific the user stated (not a path or command) is a constraint of the task. */
function useKind(specific: FoundSpecific, source: ReadMessage): NeededKind {
  if (source.role === 'user' && specific.kind !== 'path' && specific.kind !== 'command') return 'constraint';
  return specific.kind;
}

/**
 * The needed facts of a transcript (docs/probes.md): every specific an assistant message (its text
 * or a tool call's argument values) uses that an earlier message (tool output, a user message,
 * the agent's own words) held, and that no message of the last `minDistance` steps held. A pure
 * function of the transcript: the same on any language, no question text involved.
 */
export function extractNeededUses(transcript: Transcript, options: { minDistance?: number } = {}): NeededUse[] {
  const minDistance = options.minDistance ?? DEFAULT_MIN_DISTANCE;
  const read = readMessages(transcript);
  const lastSeen = new Map<string, number>();
  const uses: NeededUse[] = [];
  // Names, numbers and commands the session shows first in the agent's own words: known without
  // the session (`python3`, `VirtualHost`, `git status -sb`) or made up; their later uses need
  // nothing the session showed. A path or phrase the agent wrote first is its own earlier words
  // (a file it settled on, a message it chose), which count.
  const agentFirst = new Set<string>();
  const text = new SessionText(read.map((m) => m.searchable));
  // A quoted phrase stands where the session showed it, quoted or not: a line of a file a tool
  // printed (`grep "if username is None"`), an error text; a phrase the agent's own words showed
  // first counts only where it quoted it there too (a message it chose), not where it wrote it in passing.
  // A phrase of plain words the session never quoted must stand whole where it showed it, not
  // begin or end a longer run of words: `# Main execution` is a comment an agent writes anew,
  // not a use of `# Main execution function` in another script.
  const phraseSource = (phrase: string, use: number): number | undefined => {
    if (lastSeen.has(phrase)) return text.lastHolding(phrase, use);
    const whole = findSpecifics(phrase).length === 0;
    const first = text.firstHolding(phrase, whole);
    return first !== undefined && read[first]?.role !== 'assistant' ? text.lastHolding(phrase, use, whole) : undefined;
  };
  read.forEach((message, index) => {
    if (message.role === 'assistant') {
      const used = new Set<string>();
      for (const specific of message.specifics) {
        // The longest form of the specific the session showed far enough back: a name the agent
        // qualified itself (`self.refit_time_`) still uses the one the task named (`refit_time_`).
        for (const form of formsOf(specific)) {
          const source = specific.kind === 'quoted' ? phraseSource(form, index) : lastSeen.get(form);
          if (source === undefined) {
            if (isKnowable(specific)) agentFirst.add(form);
            continue;
          }
          if (agentFirst.has(form) || used.has(form)) continue;
          const from = read[source] as ReadMessage;
          if (message.step - from.visibleFrom < minDistance || seenSince(read, source, index, form, message.step - minDistance)) continue;
          used.add(form);
          uses.push({
            fact: form,
            kind: useKind(formKind(specific, form), from),
            sourceIndex: source,
            sourceStep: from.visibleFrom,
            useIndex: index,
            useStep: message.step,
          });
          break;
        }
      }
      for (const reference of message.lineReferences) {
        const use = lineUse(read, index, reference, minDistance);
        if (use !== undefined && !used.has(use.fact)) {
          used.add(use.fact);
          uses.push(use);
        }
      }
    }
    for (const seen of message.seen) lastSeen.set(seen, index);
  });
  return uses;
}

/**
 * The forms of a specific a use may stand for, longest first: itself, then the shorter ones inside
 * it — a path's tails (`fits/card.py`, never `/usr/lib` of `/usr/lib/x.so`: a directory a path
 * passes through is not what it names), a qualified name's heads and tails.
 */
function formsOf(specific: FoundSpecific): string[] {
  if (specific.kind !== 'path' && specific.kind !== 'identifier' && specific.kind !== 'error') return [specific.value];
  const forms = innerForms(specific.value).filter(
    (form, i) => i === 0 || specific.kind !== 'path' || (specific.value.endsWith(form) && !specific.value.startsWith(`/${form}`)),
  );
  // A shorter form is a specific of its own shape, or none (`service` of `panel.service` is a word).
  const shaped = forms.filter((form, i) => i === 0 || /[/.]/.test(form) || isSpecificName(form));
  return [...new Set(shaped)].sort((a, b) => b.length - a.length);
}

/** The kind of a shorter form of a specific: a path's tail without a directory or extension (`CHROOT_DIR`) is a name. */
function formKind(specific: FoundSpecific, form: string): FoundSpecific {
  if (form === specific.value || specific.kind !== 'path' || /[/.]/.test(form)) return { value: form, kind: specific.kind };
  return { value: form, kind: 'identifier' };
}

/**
 * Whether a message after `source` and before `use`, visible after step `after`, holds the value
 * inside a longer specific (`a.py` in `src/a.py`): then the fact was seen less than the distance ago.
 */
function seenSince(read: readonly ReadMessage[], source: number, use: number, value: string, after: number): boolean {
  for (let i = use - 1; i > source; i--) {
    const message = read[i] as ReadMessage;
    if (message.visibleFrom <= after) return false;
    if (holdsAlone(message.searchable, value)) return true;
  }
  return false;
}

/**
 * The use of a line of a file the message at `use` addresses by number (line-numbers.ts): its fact
 * is the line as the last listing of the file that covers it printed it, at least `minDistance`
 * steps back and not printed since; none when the file changed after that listing (its numbers
 * are stale) or no listing covers the line.
 */
function lineUse(read: readonly ReadMessage[], use: number, reference: LineReference, minDistance: number): NeededUse | undefined {
  const message = read[use] as ReadMessage;
  for (let i = use - 1; i >= 0; i--) {
    const earlier = read[i] as ReadMessage;
    if (earlier.changed.some((file) => isSameFile(file, reference.file))) return undefined;
    const fact = earlier.listing !== undefined && isSameFile(earlier.listing.file, reference.file) ? earlier.listing.lines.get(reference.line) : undefined;
    if (fact === undefined) continue;
    if (message.step - earlier.visibleFrom < minDistance || seenSince(read, i, use, fact, message.step - minDistance)) return undefined;
    return { fact, kind: 'number', sourceIndex: i, sourceStep: earlier.visibleFrom, useIndex: use, useStep: message.step };
  }
  return undefined;
}
