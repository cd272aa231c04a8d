import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { DEFAULT_DECISION, type DecisionOptions } from '../metrics/recommend.js';
import type { AggregateRule, Objective, RecommendationConstraints } from '../metrics/recommendation.js';
import { parseChoice, parsePositiveInt } from './options.js';

/** The flags of the recommendation, as commander hands them over. */
export interface DecisionFlags {
  objective: Objective;
  minRecall?: RecommendationConstraints['minRecall'];
  maxCrashes: number;
  aggregate: AggregateRule;
}

/**
 * `--objective`, `--min-recall`, `--max-crashes`, `--aggregate`: what `run`, `sweep`, `merge` and
 * `report` recommend under (src/metrics/recommend.ts, docs/decision.md). One definition, so the
 * commands cannot drift apart.
 */
export function addDecisionOptions(command: Command): Command {
  return command
    .option(
      '--objective <name>',
      'what the recommendation minimises: cost (USD net of prompt cache), tokens or peak (context)',
      parseChoice('--objective', ['cost', 'tokens', 'peak'] as const),
      DEFAULT_DECISION.objective,
    )
    .option(
      '--min-recall <floor>',
      'recall floor of the recommendation: needed-5 (the default: at most 5 % of the needed facts lost beyond recovery), an answer-recall fraction (0.8), or points below the reference (full-5)',
      parseMinRecall,
    )
    .option('--max-crashes <n>', 'crashed units (or logs) allowed where another strategy completes', parsePositiveInt('--max-crashes'), 0)
    .option(
      '--aggregate <rule>',
      'over several scenarios: worst-case (pass on every one) or mean',
      parseChoice('--aggregate', ['worst-case', 'mean'] as const),
      DEFAULT_DECISION.aggregate,
    );
}

/** The library's decision options from the flags. */
export function decisionOf(flags: DecisionFlags): DecisionOptions {
  return {
    objective: flags.objective,
    constraints: { minRecall: flags.minRecall ?? DEFAULT_DECISION.constraints.minRecall, maxCrashes: flags.maxCrashes },
    aggregate: flags.aggregate,
  };
}

/** `needed-5` (5 % of needed facts lost at most), `0.8` (absolute), `full-5` (5 points below full), `full` (no loss at all). */
function parseMinRecall(value: string): RecommendationConstraints['minRecall'] {
  const text = value.trim().toLowerCase().replace(/\s+/g, '');
  const needed = /^needed(?:-(\d+(?:\.\d+)?))?$/.exec(text);
  if (needed !== null && Number(needed[1] ?? 0) <= 100) return { kind: 'needed', maxLost: Number(needed[1] ?? 0) / 100 };
  const relative = /^full(?:-(\d+(?:\.\d+)?))?$/.exec(text);
  if (relative !== null) return { kind: 'relative', points: Number(relative[1] ?? 0) / 100 };
  const n = Number(text);
  if (text === '' || !(n >= 0 && n <= 1))
    throw new UsageError(`--min-recall expects needed-<percent> (needed-5), a fraction between 0 and 1 (0.8) or points below full (full-5), got "${value}"`);
  return { kind: 'absolute', value: n };
}
