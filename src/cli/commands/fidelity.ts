import type { Command } from 'commander';
import { measureFidelity } from '../../fidelity/measure.js';
import { renderFidelity } from '../../fidelity/render.js';

interface FidelityFlags {
  json?: boolean;
  lenient?: boolean;
}

export function register(program: Command): void {
  program
    .command('fidelity')
    .description('replay transcripts with full and compare the prompt tokens ctxbench counts with the input tokens the agent recorded')
    .argument('<transcripts...>', 'agent logs (any importable format) or canonical *.ctx.jsonl files')
    .option('--json', 'print the per-step comparison and the per-format errors as JSON')
    .option('--lenient', 'skip broken transcript lines and count them instead of failing')
    .action(async (paths: string[], flags: FidelityFlags) => {
      const report = await measureFidelity(paths, { lenient: flags.lenient === true });
      process.stdout.write(flags.json === true ? `${JSON.stringify(report, null, 2)}\n` : renderFidelity(report));
    });
}
