import type { UnitResult } from '../metrics/types.js';

/** Crash messages name step numbers of one log; grouping ignores them, so alike crashes count as one reason. */
const STEP_NUMBER = /\bstep \d+\b/g;

/**
 * Why a unit crashed, in words: each distinct crash message of its crash events (`kind: message`),
 * with how many times it happened, most frequent first. Empty when it did not crash.
 */
export function crashReasons(unit: UnitResult): { text: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const event of unit.events) {
    if (event.type !== 'crash') continue;
    const text = `${event.kind}: ${event.message.replace(STEP_NUMBER, 'step N')}`;
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return [...counts].map(([text, count]) => ({ text, count })).sort((a, b) => b.count - a.count || a.text.localeCompare(b.text));
}

/** The unit's first crash in words: `context-overflow at step 4: prepare() returned …`; undefined when it did not crash. */
export function describeCrash(unit: UnitResult): string | undefined {
  const { summary } = unit;
  if (!summary.crashed) return undefined;
  const event = unit.events.find((e) => e.type === 'crash');
  const where = `${summary.crash_kind ?? 'crash'} at step ${summary.crash_step ?? '?'}`;
  return event?.type === 'crash' && event.message !== '' ? `${where}: ${event.message}` : where;
}
