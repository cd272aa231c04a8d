import type { Random } from '../../random.js';

/**
 * Where a planted fact sits inside the tool output that carries it. Real tool output puts the
 * line that matters anywhere (a port in the middle of a config, a commit deep in a log); a
 * generator that always plants it near the head flatters every strategy that keeps a head
 * preview. `head` keeps the renderers' own layout (the old behaviour, byte for byte), `uniform`
 * moves the fact's line to a seeded line over the whole output, `tail` to the last lines.
 */
export type FactPosition = 'uniform' | 'head' | 'tail';
export const FACT_POSITIONS = ['uniform', 'head', 'tail'] as const;

/** Outputs shorter than this many lines keep their layout: any head preview holds them whole. */
const MIN_LINES = 8;
/** Share of the output's lines `tail` draws from. */
const TAIL_SHARE = 0.1;
/** `cat -n` numbering (synthetic-code.ts numberLines): six columns, a tab, the line. */
const NUMBERED = /^ {0,5}(\d+)\t/;

/**
 * Moves the one line of `output` that holds `marker` to a position drawn from `random`. Outputs
 * where the marker sits on several lines (a test run names its failing test in the header, the
 * trace and the summary) or on none, and short outputs (`MIN_LINES`), are left as rendered.
 * Line-numbered output is renumbered so the numbers stay consecutive.
 */
export function placeFactLine(output: string, marker: string, position: FactPosition, random: Random): string {
  if (position === 'head') return output;
  const lines = output.split('\n');
  const holding = lines.flatMap((line, index) => (line.includes(marker) ? [index] : []));
  const from = holding[0];
  if (from === undefined || holding.length !== 1 || lines.length < MIN_LINES) return output;
  const numbering = lines.every((line) => NUMBERED.test(line)) ? Number(NUMBERED.exec(lines[0] ?? '')?.[1] ?? 1) : undefined;
  const bodies = numbering === undefined ? lines : lines.map((line) => line.replace(NUMBERED, ''));
  const [moved = ''] = bodies.splice(from, 1);
  const to = drawIndex(bodies.length + 1, position, random);
  bodies.splice(to, 0, moved);
  if (numbering === undefined) return bodies.join('\n');
  return bodies.map((line, i) => `${String(numbering + i).padStart(6)}\t${line}`).join('\n');
}

/** An insertion index in [0, slots). */
function drawIndex(slots: number, position: FactPosition, random: Random): number {
  if (position === 'tail') {
    const span = Math.max(1, Math.ceil(slots * TAIL_SHARE));
    return slots - 1 - Math.floor(random.next() * span);
  }
  return Math.min(slots - 1, Math.floor(random.next() * slots));
}
