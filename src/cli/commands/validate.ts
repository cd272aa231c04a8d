import type { Command } from 'commander';
import { getImporter, importerNames } from '../../transcript/importers/index.js';
import { validateFiles, type LogValidation, type Validation } from '../../replay/needed-validate.js';
import { DEFAULT_MIN_DISTANCE } from '../../probes/needed/extract.js';
import { addExamples, parsePositiveInt } from '../options.js';

interface ValidateFlags {
  json?: boolean;
  lenient?: boolean;
  from?: string;
  minDistance?: number;
}

const share = (present: number, needed: number): string => (needed === 0 ? '-' : `${((100 * present) / needed).toFixed(1)} %`);

function renderMissing(missing: LogValidation['missing'], examples?: LogValidation['examples']): string[] {
  return Object.entries(missing).map(([cause, n]) => {
    const shown = (examples?.[cause as keyof typeof missing] ?? []).map((e) => `${JSON.stringify(e.fact)} (${e.kind}, step ${e.sourceStep} → ${e.useStep})`);
    return `    ${cause}: ${n}${shown.length > 0 ? `, e.g. ${shown.join('; ')}` : ''}`;
  });
}

function renderValidation(validation: Validation): string {
  const lines: string[] = [];
  for (const log of validation.logs) {
    lines.push(
      `${log.file}: ${log.steps} steps, ${log.compactions} compaction(s), ${log.needed} needed uses, recorded holds ${log.present} (${share(log.present, log.needed)})`,
    );
    lines.push(...renderMissing(log.missing, log.examples));
  }
  const { needed, present, missing } = validation.pooled;
  lines.push(`pooled: ${needed} needed uses over ${validation.logs.length} log(s), recorded holds ${present} (${share(present, needed)})`);
  lines.push(...renderMissing(missing));
  return `${lines.join('\n')}\n`;
}

/** `ctxbench validate`: whether what the agent really sent held every needed fact where it used it. */
export function register(program: Command): void {
  const command = program
    .command('validate')
    .description(
      'run what the agent really sent (the recorded strategy, as `run` does) and check, at each step where the agent used a needed fact (docs/probes.md), that its context held it (needed.csv outcome kept or summarized); misses by cause',
    )
    .argument('<logs...>', 'agent logs (any format `import` reads) or canonical *.ctx.jsonl files')
    .option('--json', 'print the result as JSON: { logs, pooled: { needed, present, missing } }')
    .option('--from <format>', `the logs' format when their content cannot tell (${importerNames().join(', ')})`)
    .option(
      '--min-distance <steps>',
      `a fact is needed when last seen at least this many steps before its use (default ${DEFAULT_MIN_DISTANCE})`,
      parsePositiveInt('--min-distance'),
    )
    .option('--lenient', 'skip broken transcript lines instead of failing');
  addExamples(command, [['ctxbench validate fixtures/real/claude-code-compactions/*.jsonl', 'needed facts recorded held, per log and pooled']]);
  command.action(async (paths: string[], flags: ValidateFlags) => {
    if (flags.from !== undefined) getImporter(flags.from);
    const validation = await validateFiles(paths, {
      lenient: flags.lenient === true,
      ...(flags.from !== undefined ? { format: flags.from } : {}),
      ...(flags.minDistance !== undefined ? { minDistance: flags.minDistance } : {}),
    });
    process.stdout.write(flags.json === true ? `${JSON.stringify(validation, null, 2)}\n` : renderValidation(validation));
  });
}
