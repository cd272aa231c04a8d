import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { addExamples, parseChoice } from '../options.js';
import { loadPriceFile } from '../../pricing/file.js';
import { checkAndReport, type CheckFlags } from '../check-report.js';

export function register(program: Command): void {
  const command = program
    .command('check')
    .description('compare a run with a baseline result.json; exit 1 on a regression, 2 when they cannot be compared')
    .argument('<result>', "the run's result.json")
    .requiredOption('--baseline <file>', 'the baseline result.json')
    .option('--config <file>', 'check config (YAML or JSON): thresholds, decision, per-unit overrides')
    .option('--max-token-increase <percent>', 'total tokens may rise by at most this many percent (default 5)', parseAmount('--max-token-increase'))
    .option(
      '--max-cost-increase <percent>',
      'cost in USD, net of prompt cache, may rise by at most this many percent (default 5)',
      parseAmount('--max-cost-increase'),
    )
    .option('--max-recall-drop <points>', 'answer recall may fall by at most this many points (default 2)', parseAmount('--max-recall-drop'))
    .option('--max-retention-drop <points>', 'retention may fall by at most this many points (default 2)', parseAmount('--max-retention-drop'))
    .option('--decision <how>', 'auto (default), estimate or interval', parseChoice('--decision', ['auto', 'estimate', 'interval'] as const))
    .option('--md <file>', 'write the diff as Markdown (a pull-request comment)')
    .option('--junit <file>', 'write the diff as JUnit XML')
    .option('--allow-mismatch', 'compare results of different seeds or scenario definitions anyway')
    .option('--prices <file>', 're-cost both results at these prices (YAML/JSON, as run --prices) before comparing cost', loadPriceFile);
  addExamples(command, [
    ['ctxbench check reports/latest/result.json --baseline baseline.json', 'exit 1 on a regression'],
    ['ctxbench check result.json --baseline base.json --max-recall-drop 5 --md diff.md', 'looser recall, a pull-request comment'],
  ]);
  command.action(async (result: string, flags: CheckFlags & { baseline: string }) => {
    await checkAndReport(result, flags.baseline, flags);
  });
}

/** A non-negative number (percent or points) for a threshold flag. */
function parseAmount(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`${flag} expects a number ≥ 0, got "${value}"`);
    return n;
  };
}
