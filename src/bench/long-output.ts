import { countTokens } from '../tokens/tokenizer.js';
import type { BenchRow } from './cases.js';

/** Seeded words, numbers and paths: a tool output whose lines are all different (no count is memoized). */
function toolOutput(chars: number, longLines: boolean): string {
  const words = ['error', 'warning', 'src/engine/run.ts', 'expected', 'received', 'TypeError:', 'at', 'Object.<anonymous>', '{"id":', 'null,', 'undefined'];
  let x = 7;
  const parts: string[] = [];
  let length = 0;
  let line = 0;
  while (length < chars) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    const word = `${words[(x >>> 8) % words.length] ?? ''}${x % 9973}`;
    line += word.length + 1;
    // Long lines: a minified file, a JSON blob on one line (~1 MB); otherwise a line every ~80 characters.
    const end = line > (longLines ? 1_000_000 : 80);
    if (end) line = 0;
    parts.push(word, end ? '\n' : ' ');
    length += word.length + 1;
  }
  return parts.join('');
}

/**
 * Counting one 60 MB tool output: the WASM tokenizer gets it in bounded pieces (tokens/bounded-
 * pieces.ts), so its memory stays within a few hundred MB (one call on the whole took 2.7 GB).
 * The value is the growth of the process's peak RSS while counting (over the peak before it: the
 * first of the two rows is the cleaner figure).
 */
export function benchLongOutput(longLines: boolean): BenchRow {
  const text = toolOutput(60 * 2 ** 20, longLines);
  const before = process.resourceUsage().maxRSS;
  const started = performance.now();
  const tokens = countTokens('o200k_base', text);
  const seconds = (performance.now() - started) / 1000;
  const grownMiB = (process.resourceUsage().maxRSS - before) / 1024;
  return {
    name: `tokenizer: 60 MB tool output${longLines ? ', 1 MB lines' : ''}, peak RSS growth`,
    value: grownMiB,
    bound: 'max',
    target: 400,
    unit: 'MiB',
    note: `${tokens} tokens in ${seconds.toFixed(1)} s`,
  };
}
