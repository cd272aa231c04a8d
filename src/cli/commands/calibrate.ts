import type { Command } from 'commander';
import { calibrateFiles } from '../../calibration/load.js';
import { renderCalibration } from '../../calibration/render.js';
import { addExamples } from '../options.js';

interface CalibrateFlags {
  json?: boolean;
  lenient?: boolean;
}

export function register(program: Command): void {
  const command = program
    .command('calibrate')
    .description(
      'replay the history each real compaction replaced through the simulated summarizer (at the length its fit predicts) and compare the verbatim survival of paths, numbers and identifiers and the size, per compaction, pooled, and with each author held out',
    )
    .argument('<logs...>', 'agent logs with compactions (Claude Code, Codex, …) or canonical *.ctx.jsonl files')
    .option('--json', 'print the comparison as JSON')
    .option('--lenient', 'skip broken transcript lines and count them instead of failing');
  addExamples(command, [
    [
      'ctxbench calibrate --lenient fixtures/real/claude-code-long/*.jsonl fixtures/real/claude-code-compactions/*.jsonl',
      'simulated vs real compaction summaries',
    ],
  ]);
  command.action(async (paths: string[], flags: CalibrateFlags) => {
    const report = await calibrateFiles(paths, { lenient: flags.lenient === true });
    process.stdout.write(flags.json === true ? `${JSON.stringify(report, null, 2)}\n` : renderCalibration(report));
  });
}
