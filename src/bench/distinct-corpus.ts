/**
 * A corpus of distinct trajectories made from the 23 given mini-swe-agent logs: copy k > 0 of a
 * log has every word of its own (identifiers, path parts, prose the agent harness did not write)
 * and every number of two digits or more renamed through a bijection seeded by k, so no message
 * of one copy is the text of another's and no memo finds a copy's texts already read (a corpus of
 * repeated copies measures the caches, not the run). Words stay words of the same corpus, of the
 * same length and case, so texts tokenize about as the real ones do; the harness's own wording
 * (the agent's templates: system prompt, instructions, `<returncode>` tags, the `bash` fence) and
 * one-digit numbers (exit codes) are kept, as in a real corpus of one agent's runs.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRandom, deriveSeed, type Random } from '../random.js';

/** One source trajectory: its file name and parsed document. */
interface SourceLog {
  name: string;
  document: TrajectoryDocument;
}

interface TrajectoryDocument {
  instance_id?: string;
  info?: { config?: { agent?: Record<string, unknown> } };
  messages: { content: unknown }[];
}

const WORD = /[A-Za-z]{3,}/g;
const NUMBER = /\d{2,}/g;

/** Words grouped so a renamed word keeps the length and case of the one it replaces. */
function shapeOf(word: string): string {
  const kind = word === word.toLowerCase() ? 'l' : word === word.toUpperCase() ? 'U' : /^[A-Z][a-z]+$/.test(word) ? 'C' : 'm';
  return `${kind}${word.length}`;
}

function shuffled<T>(items: readonly T[], random: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The words a copy may rename (the sources' words, less the harness's own) grouped by shape, sorted. */
function renamableWords(sources: readonly SourceLog[]): Map<string, string[]> {
  const kept = new Set<string>(['bash']);
  for (const { document } of sources) {
    for (const value of Object.values(document.info?.config?.agent ?? {})) {
      if (typeof value === 'string') for (const [word] of value.matchAll(WORD)) kept.add(word);
    }
  }
  const groups = new Map<string, Set<string>>();
  for (const { document } of sources) {
    for (const message of document.messages) {
      for (const text of contentTexts(message.content)) {
        for (const [word] of text.matchAll(WORD)) {
          if (kept.has(word)) continue;
          const shape = shapeOf(word);
          let group = groups.get(shape);
          if (group === undefined) groups.set(shape, (group = new Set()));
          group.add(word);
        }
      }
    }
  }
  return new Map([...groups].sort(([a], [b]) => (a < b ? -1 : 1)).map(([shape, words]) => [shape, [...words].sort()]));
}

function contentTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown) =>
    typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? [(part as { text: string }).text] : [],
  );
}

/** Copy `copy`'s renaming: a seeded permutation of each word group and of the ten digits. */
function createRenaming(words: Map<string, string[]>, seed: number, copy: number): (text: string) => string {
  const random = createRandom(deriveSeed(seed, `corpus-copy-${copy}`));
  const wordMap = new Map<string, string>();
  for (const group of words.values()) {
    const order = shuffled(group, random);
    group.forEach((word, i) => wordMap.set(word, order[i] as string));
  }
  const digits = shuffled([...'0123456789'], random);
  const renameNumber = (n: string) => [...n].map((d) => digits[Number(d)] as string).join('');
  return (text) => text.replace(WORD, (w) => wordMap.get(w) ?? w).replace(NUMBER, renameNumber);
}

function renameContent(content: unknown, rename: (text: string) => string): unknown {
  if (typeof content === 'string') return rename(content);
  if (!Array.isArray(content)) return content;
  return content.map((part: unknown) =>
    typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
      ? { ...part, text: rename((part as { text: string }).text) }
      : part,
  );
}

function readSources(dir: string): SourceLog[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.traj.json'))
    .sort()
    .map((name) => ({ name, document: JSON.parse(readFileSync(join(dir, name), 'utf8')) as TrajectoryDocument }));
}

/**
 * Writes `size` trajectories into `logs` (created): the sources in order, then copy 1 of each, copy
 * 2, …, each copy renamed (its messages, instance id and file name). Same seed, same files.
 */
export function writeDistinctCorpus(sourceDir: string, logs: string, size: number, seed = 1): void {
  const sources = readSources(sourceDir);
  const words = renamableWords(sources);
  mkdirSync(logs, { recursive: true });
  for (let copy = 0; copy * sources.length < size; copy++) {
    const rename = copy === 0 ? (text: string) => text : createRenaming(words, seed, copy);
    sources.slice(0, size - copy * sources.length).forEach(({ name, document }) => {
      const renamed: TrajectoryDocument = {
        ...document,
        ...(document.instance_id === undefined ? {} : { instance_id: `${rename(document.instance_id)}-c${copy}` }),
        messages: document.messages.map((message) => ({ ...message, content: renameContent(message.content, rename) })),
      };
      writeFileSync(join(logs, `c${String(copy).padStart(2, '0')}-${name}`), JSON.stringify(renamed));
    });
  }
}
