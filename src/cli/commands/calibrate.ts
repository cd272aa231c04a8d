import type { Command } from 'commander';
import { calibrateFiles } from '../../calibration/load.js';
import { renderCalibration } from '../../calibration/render.js';

interface CalibrateFlags {
  json?: boolean;
  lenient?: boolean;
}

export function register(program: Command): void {
  program
    .command('calibrate')
    .description("replay the history each real compaction replaced through the simulated summarizer at the real summary's size, and compare the verbatim survival of paths, numbers and identifiers")
    .argument('<logs...>', 'agent logs with compactions (Claude Code, Codex, …) or canonical *.ctx.jsonl files')
    .option('--json', 'print the comparison as JSON')
    .option('--lenient', 'skip broken transcript lines and count them instead of failing')
    .action(async (paths: string[], flags: CalibrateFlags) => {
      const report = await calibrateFiles(paths, { lenient: flags.lenient === true });
      process.stdout.write(flags.json === true ? `${JSON.stringify(report, null, 2)}\n` : renderCalibration(report));
    });
}
