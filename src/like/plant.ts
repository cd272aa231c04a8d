import type { Random } from '../random.js';
import type { NeededKind } from '../probes/needed/types.js';
import { renderProse, suffix } from './filler.js';

/**
 * Planted needed facts: specifics made unique in their session (a counter and a random suffix),
 * of the shape of their kind, so that the needed-fact extraction (src/probes/needed/) reads them
 * as that kind, and a use that writes them again at least the minimum distance later as a use.
 */

const STEMS = ['parse', 'header', 'card', 'value', 'format', 'render', 'record', 'buffer', 'config', 'loader', 'writer', 'index', 'cache'];

/** A fact of `kind`, unique by `n`. A user's constraint is a name the user wrote; a command is a shell line. */
export function drawFact(random: Random, kind: NeededKind, n: number): string {
  const tag = `${n.toString(36)}${suffix(random)}`;
  const stem = (): string => random.pick(STEMS);
  switch (kind) {
    case 'path':
      return `${stem()}_${tag}/${stem()}_${stem()}_${tag}.py`;
    case 'number':
      return `${random.int(10, 99)}${(n % 1000).toString().padStart(3, '0')}ms`;
    case 'quoted':
      return `"${stem()} ${stem()} ${tag}"`;
    case 'error':
      return `${cap(stem())}${cap(tag)}Error`;
    case 'command':
      return `python -m pytest tests/test_${stem()}_${tag}.py -q`;
    case 'identifier':
    case 'constraint':
      return `${stem()}_${stem()}_${tag}`;
  }
}

function cap(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A line of plain prose that names the fact, as an agent writes what it is about to use. */
export function useSentence(random: Random, fact: string): string {
  return `${renderProse(random, random.int(4, 12)).replace(/\.$/, '')} ${fact} ${renderProse(random, random.int(2, 6))}`;
}

/** The text with a line holding the fact inserted at the line nearest the relative position (0 = first, 1 = last). */
export function insertAt(text: string, line: string, position: number): string {
  if (text === '') return line;
  const lines = text.split('\n');
  const at = Math.min(lines.length, Math.max(0, Math.round(position * lines.length)));
  return [...lines.slice(0, at), line, ...lines.slice(at)].join('\n');
}
