import type { Recommendation } from '../metrics/recommendation.js';
import { recommendationBlock } from './recommendation-block.js';

/** Excluded candidates listed on a terminal; the rest are counted (summary.md lists them all). */
const SHOWN_EXCLUSIONS = 5;

/**
 * The decision for the head of a run's terminal output: a bold headline, why, the runner-up and
 * what was excluded and why, each on a line. Pure: the CLI prints it.
 */
export function renderTerminalRecommendation(recommendation: Recommendation, options: { color: boolean }): string {
  const block = recommendationBlock(recommendation);
  const bold = (text: string): string => (options.color ? `\x1b[1m${text}\x1b[0m` : text);
  const shown = block.excluded.slice(0, SHOWN_EXCLUSIONS);
  const more = block.excluded.length - shown.length;
  const lines = [
    bold(`Recommendation: ${block.headline}`),
    `  why: ${block.why}`,
    ...(block.runnerUp !== null ? [`  runner-up: ${block.runnerUp}`] : []),
    ...shown.map((line, i) => `  ${i === 0 ? 'excluded: ' : '          '}${line}`),
    ...(more > 0 ? [`            and ${more} more (summary.md)`] : []),
    ...block.disagreements.map((line) => `  scenarios disagree: ${line}`),
  ];
  return `${lines.join('\n')}\n`;
}
