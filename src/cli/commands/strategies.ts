import type { Command } from 'commander';
import { strategies } from '../../strategies/index.js';
import { describeOptions, type OptionDoc } from '../../strategies/helpers/describe.js';
import { addExamples } from '../options.js';

export function register(program: Command): void {
  const command = program
    .command('strategies')
    .description('list the registered strategies with their options and defaults, as run --set and sweep --grid write them')
    .option('--json', 'print as JSON');
  addExamples(command, [
    ['ctxbench strategies', 'every strategy, each option as strategy.option=default'],
    ['ctxbench run s.ctx.jsonl --set rolling-window.groups=6', 'change an option for a run'],
    ["ctxbench sweep --grid 'rolling-window.groups=2..12:2'", 'or sweep it'],
  ]);
  command.action((flags: { json?: boolean }) => {
    const list = Object.values(strategies).map((s) => ({ name: s.name, description: s.description, options: describeOptions(s) }));
    if (flags.json === true) {
      process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      return;
    }
    for (const s of list) {
      process.stdout.write(`${s.name}\n  ${s.description}\n`);
      const settings = s.options.map((o) => formatSetting(s.name, o));
      const width = Math.max(0, ...settings.map((text) => text.length));
      s.options.forEach((o, i) => process.stdout.write(`    ${(settings[i] ?? '').padEnd(width)}  ${o.description}\n`));
      process.stdout.write('\n');
    }
  });
}

/** `rolling-window.groups=4`: the option as `run --set` and `sweep --grid` take it, with its default. */
function formatSetting(strategy: string, option: OptionDoc): string {
  const value = option.default;
  if (value === undefined) return `${strategy}.${option.name}=(unset)`;
  const text = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  return `${strategy}.${option.name}=${text}`;
}
