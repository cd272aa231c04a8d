import type { Command } from 'commander';
import { resolve } from 'node:path';
import { runTune, type TuneResult } from '../../sweep/tune.js';
import { renderSweepFiles, renderSweepTerminal } from '../../sweep/render.js';
import { readChartScript } from '../../report/html-chart-script.js';
import { writeReportFiles } from '../../report/write.js';
import { checkOutDir, lockOutDir, refuseHeldOutDir } from '../out-dir.js';
import { givenPath } from '../../paths.js';
import { GateError, UsageError } from '../../errors.js';
import { describeChoice } from '../../metrics/recommend-words.js';
import { addExamples, parseList, parsePositiveInt } from '../options.js';
import { createProgress } from '../progress.js';
import { addParallelOptions } from '../parallel-options.js';
import { addScenarioOptions, scenarioOverridesOf, type ScenarioFlags } from '../scenario-options.js';
import { addDecisionOptions, decisionOf, type DecisionFlags } from '../decision-options.js';
import type { ReportFile } from '../../report/types.js';

interface TuneFlags extends ScenarioFlags, DecisionFlags {
  strategies?: string[];
  strategyModule?: string[];
  budget?: number;
  out: string;
  quiet?: boolean;
  workers: number;
  memo: boolean;
  requireFloor?: boolean;
}

export function register(program: Command): void {
  const command = program
    .command('tune')
    .description(
      "search each strategy's tunable trigger and keep options (coarse to fine, a budget of runs) on your logs and answer which setting to ship, with the front it came from",
    )
    .argument('<paths...>', 'logs (any format import reads), folders of logs, or scenario files')
    .option('--strategies <names>', 'the strategies to tune (default: every one that declares tunable options; see ctxbench strategies)', parseList)
    .option(
      '--strategy-module <path>',
      'a strategy module of your own to tune by its tunable options (repeatable; docs/strategy-api.md): beside --strategies, else alone',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--budget <n>', 'most point runs (a setting on one scenario) to spend (default: a third of the full grid)', parsePositiveInt('--budget'))
    .option('--require-floor', 'exit 1 when no setting meets the recall floor')
    .option('-o, --out <dir>', 'output folder', 'reports/tune')
    .option('--quiet', 'print nothing but errors');
  addParallelOptions(addDecisionOptions(addScenarioOptions(command))).action(tuneCommand);
  addExamples(command, [
    ['ctxbench tune ~/.claude/projects/p/ --window 100000', 'every tunable strategy on a folder of your own logs'],
    ['ctxbench tune log.jsonl --strategies codex-rebuild,observation-masking --budget 12', 'two strategies, twelve runs at most'],
    ['ctxbench tune log.jsonl --strategy-module ./my-policy.mjs', "your own strategy module's tunable options"],
  ]);
}

async function tuneCommand(paths: string[], flags: TuneFlags): Promise<void> {
  if (paths.length === 0) throw new UsageError('tune needs logs, a folder of logs or scenario files');
  const out = resolve(flags.out);
  checkOutDir(out);
  refuseHeldOutDir(out);
  const progress = createProgress({ quiet: flags.quiet === true });
  const tune = await runTune({
    scenarios: paths.map((path) => resolve(path)),
    ...(flags.strategies !== undefined ? { strategies: flags.strategies } : {}),
    ...(flags.strategyModule !== undefined ? { modules: flags.strategyModule.map((path) => resolve(path)) } : {}),
    ...(flags.budget !== undefined ? { budget: flags.budget } : {}),
    decision: decisionOf(flags),
    mode: 'mock',
    overrides: scenarioOverridesOf(flags, undefined),
    workers: flags.workers,
    ...(flags.memo ? {} : { memo: false }),
    onUnit: progress.onUnit,
  });
  progress.done();
  const files = [...renderSweepFiles(tune.sweep, readChartScript()), renderTuneCsv(tune)];
  const lock = lockOutDir(out);
  let written: string[];
  try {
    written = await writeReportFiles(out, files);
  } finally {
    lock.release();
  }
  const rec = tune.sweep.recommendation;
  if (flags.quiet !== true) {
    process.stdout.write(`${tuneHeadline(tune)}\n\n`);
    process.stdout.write(renderSweepTerminal(tune.sweep));
    process.stdout.write(`wrote ${written.length} files to ${givenPath(flags.out)}/\n`);
  }
  if (flags.requireFloor === true && !rec.meetsFloor) throw new GateError(`the recall floor is not met: ${rec.reason}`);
}

/** "Tune: ship codex-rebuild trigger=0.7 — 24 runs in 4 rounds, of a 100-run grid". */
function tuneHeadline(tune: TuneResult): string {
  const rec = tune.sweep.recommendation;
  const spent = `${tune.runs} runs in ${tune.rounds.length} round${tune.rounds.length === 1 ? '' : 's'}, of a ${tune.gridRuns}-run grid`;
  if (rec.strategy === null) return `Tune: nothing completes (${spent}): ${rec.reason}`;
  const ship = describeChoice({ strategy: rec.strategy, settings: rec.settings });
  return `Tune: ship ${ship}${rec.meetsFloor ? '' : ' (closest: nothing meets the floor)'} — ${spent}`;
}

/** `tune.csv`: every point run, with the round that ran it, its verdict and figures. */
function renderTuneCsv(tune: TuneResult): ReportFile {
  const roundOf = new Map(tune.rounds.flatMap((r) => r.points.map((label) => [label, r.round] as const)));
  const rows = tune.sweep.points.map((p) => {
    const needed = p.units.map((u) => u.needed_lost).filter((v): v is number => v !== null && v !== undefined);
    return [
      roundOf.get(p.label) ?? 0,
      p.strategy,
      describeChoice({ strategy: p.strategy, settings: p.settings }).slice(p.strategy.length).trim(),
      p.verdict,
      p.onFront,
      p.score.costUsd ?? '',
      p.score.totalTokens,
      needed.length === 0 ? '' : Math.max(...needed),
      p.score.answerRecall ?? '',
    ];
  });
  const header = ['round', 'strategy', 'settings', 'verdict', 'on_front', 'cost_usd', 'total_tokens', 'needed_lost', 'answer_recall'];
  const csv = [header, ...rows].map((row) => row.map((cell) => csvCell(String(cell))).join(',')).join('\n');
  return { file: 'tune.csv', contents: `${csv}\n` };
}

function csvCell(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
