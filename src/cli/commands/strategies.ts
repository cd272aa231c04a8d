import type { Command } from 'commander';
import { strategies } from '../../strategies/index.js';
import { describeOptions } from '../../strategies/describe.js';

export function register(program: Command): void {
  program
    .command('strategies')
    .description('list the registered strategies with their options and defaults')
    .option('--json', 'print as JSON')
    .action((flags: { json?: boolean }) => {
      const list = Object.values(strategies).map((s) => ({ name: s.name, description: s.description, options: describeOptions(s) }));
      if (flags.json === true) {
        process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        return;
      }
      for (const s of list) {
        process.stdout.write(`${s.name}\n  ${s.description}\n`);
        for (const o of s.options) process.stdout.write(`    --${o.name} = ${JSON.stringify(o.default)}  ${o.description}\n`);
        process.stdout.write('\n');
      }
    });
}
