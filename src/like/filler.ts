import type { Random } from '../random.js';
import { numberLines, renderModuleLines } from '../transcript/synthetic/code.js';
import { renderShell } from '../transcript/synthetic/shell.js';
import { renderTestRun } from '../transcript/synthetic/tests.js';
import type { Project } from '../transcript/synthetic/vocab.js';
import type { ToolShape } from './fit-types.js';
import { tokensOf } from './observe.js';

/**
 * The text of a session drawn like real logs: prose made of plain words only (no path, name,
 * number or quote, so that it holds no specific a later step could use: needed facts are only the
 * planted ones, session.ts) and tool output of the drawn shape, from the synthetic generator's
 * renderers, cut to the drawn size.
 */

const WORDS = (
  'the a this that we now then next first also still again here there it its check look read run see find change keep ' +
  'file test case value code path call result output error line function class module method option setting config ' +
  'update fix handle return use make add remove move write parse load save build start stop open close pass fail ' +
  'should would could might need want seems looks works breaks fails passes expected actual instead because so and ' +
  'but or if when after before while until since with without into from over under about between around through ' +
  'issue problem reason approach plan step change patch edit diff branch commit repository directory folder helper ' +
  'data list map set key entry item field record type name string number count size limit order state flag'
).split(' ');

/** Characters of filler rendered per token wanted: more than any filler takes, so that a cut to the tokens is always possible. */
const PROSE_CHARS = 6;
const OUTPUT_CHARS = 4.5;

/** Plain prose of about `tokens` tokens: sentences of plain words, no specific in it. */
export function renderProse(random: Random, tokens: number): string {
  if (tokens <= 0) return '';
  const chars = tokens * PROSE_CHARS;
  const sentences: string[] = [];
  let size = 0;
  while (size < chars) {
    const words = Array.from({ length: random.int(6, 16) }, () => random.pick(WORDS));
    const sentence = `${(words[0] ?? 'the').replace(/^./, (c) => c.toUpperCase())} ${words.slice(1).join(' ')}.`;
    sentences.push(sentence);
    size += sentence.length + 1;
  }
  return cutToTokens(sentences.join(' '), tokens);
}

/** A tool output of the given shape, cut to about `tokens` tokens at a line end where it can be. */
export function renderToolOutput(random: Random, project: Project, shape: ToolShape, tokens: number): string {
  if (tokens <= 0) return '';
  const chars = Math.ceil(tokens * OUTPUT_CHARS);
  const path = random.pick(project.modules);
  return cutToTokens(renderShape(random, project, shape, path, chars), tokens);
}

function renderShape(random: Random, project: Project, shape: ToolShape, path: string, chars: number): string {
  switch (shape) {
    case 'code':
      return numberLines(renderModuleLines(random, project, path, chars));
    case 'test':
      return renderTestRun(random, project, { command: `pytest ${path}`, testFile: random.pick(project.testFiles), targetChars: chars });
    case 'listing':
      return renderShell(random, project, 'ls', chars);
    case 'text':
      return renderShell(random, project, random.pick(['logs', 'git-log', 'git-status', 'deps'] as const), chars);
  }
}

/** The text cut to about `tokens` tokens: at the share of its characters that the share of its tokens wanted is. */
function cutToTokens(text: string, tokens: number): string {
  const count = tokensOf(text);
  return count <= tokens ? text : cutTo(text, Math.max(1, Math.floor((text.length * tokens) / count)));
}

/** The text cut to at most `chars` characters, at the last line end before that when there is one. */
function cutTo(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.lastIndexOf('\n', chars);
  return cut > chars / 2 ? text.slice(0, cut) : text.slice(0, chars);
}

/** Lowercase letters and digits: suffixes that make each planted specific unique. */
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A short random suffix. */
export function suffix(random: Random): string {
  return Array.from({ length: 3 }, () => random.pick([...ALNUM])).join('');
}
