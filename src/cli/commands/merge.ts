import type { Command } from 'commander';
import { escapeControlDeep } from '../../control-chars.js';
import { resolve } from 'node:path';
import { readResultFile } from '../../check/load-result.js';
import { mergeShards, type ShardFile } from '../../run/shard.js';
import { renderReports, reporterNames } from '../../report/index.js';
import { renderTerminalTable } from '../../report/terminal.js';
import { renderTerminalRecommendation } from '../../report/terminal-recommendation.js';
import { writeReportFiles } from '../../report/write.js';
import { resultForWriting } from '../../redact/result.js';
import { checkOutDir } from '../out-dir.js';
import { markOutDir } from '../out-owner.js';
import { givenPath } from '../../paths.js';
import { addExamples, parseList, useColor } from '../options.js';
import { addDecisionOptions, decisionOf, type DecisionFlags } from '../decision-options.js';
import { describeSeed } from '../../report/notes.js';
import type { RunResult, UnitResult } from '../../metrics/types.js';
import type { UnitDetails } from '../../report/types.js';
import { redactWhereSecret } from '../../redact/index.js';
import { readShardLogs } from '../shard-logs.js';
import { createUnitStore } from '../unit-store.js';
import { withRunMemos } from '../../memo.js';

interface MergeFlags extends DecisionFlags {
  out: string;
  reports?: string[];
  quiet?: boolean;
}

export function register(program: Command): void {
  const command = program
    .command('merge')
    .description('join the result.json files of the shards of one run (run --shard i/n) into one result, and write its reports')
    .argument('<results...>', 'one result.json per shard, in any order')
    .option('-o, --out <dir>', 'output folder', 'reports/merged')
    .option('--reports <formats>', `report formats (default: all of ${reporterNames().join(', ')})`, parseList)
    .option('--quiet', 'print nothing but errors');
  addDecisionOptions(command);
  addExamples(command, [['ctxbench merge shard-1/result.json shard-2/result.json -o reports/merged', 'after run --shard 1/2 and --shard 2/2']]);
  // The redactor's memo spares scanning the texts every unit repeats (a log's message ids and facts in each strategy's unit).
  command.action((files: string[], flags: MergeFlags) => withRunMemos({}, () => mergeCommand(files, flags)));
}

async function mergeCommand(files: string[], flags: MergeFlags): Promise<void> {
  const out = resolve(flags.out);
  checkOutDir(out);
  const shards: (ShardFile & { logs?: ReturnType<typeof readShardLogs> })[] = [];
  // A corpus's units are combined one at a time from the shards' logs, and kept on disk whole, as a run journals them.
  const store = createUnitStore(out);
  try {
    for (const file of files) {
      const result = await readResultFile(file);
      const logs = readShardLogs(file, result);
      shards.push({ file, result, ...(logs !== undefined ? { logs } : {}) });
    }
    const result = mergeShards(shards, {
      decision: decisionOf(flags),
      onCorpusUnit: (index, unit) => store.add(index, redactWhereSecret(unit)),
    });
    const shown = resultForWriting(result, true);
    const details: UnitDetails = { count: shown.units.length, load: (i) => store.load(i) ?? (shown.units[i] as UnitResult) };
    // Every file at once: the files that write each step (the CSVs, steps.parquet) each ask for the same
    // unit in turn, which is read back once (createUnitStore keeps the last two read).
    const rendered = renderReports(shown, flags.reports ?? reporterNames(), details);
    const written = (await Promise.all(rendered.map((file) => writeReportFiles(out, [file])))).flat();
    markOutDir(out, written, { prune: true });
    if (flags.quiet !== true) printMerged(result, files.length, written.length, flags.out);
  } finally {
    for (const shard of shards) shard.logs?.close();
    store.remove();
  }
}

function printMerged(result: RunResult, shards: number, files: number, out: string): void {
  const terminal = escapeControlDeep(result);
  process.stdout.write(`ctxbench ${result.tool.version} · ${describeSeed(result)} · ${result.mode} providers · merged ${shards} shards\n\n`);
  if (terminal.recommendation !== undefined)
    process.stdout.write(`${renderTerminalRecommendation(terminal.recommendation, { color: useColor(process.stdout) })}\n`);
  process.stdout.write(renderTerminalTable(terminal, { color: useColor(process.stdout), width: process.stdout.columns ?? 120 }));
  process.stdout.write(`\n${result.units.length} runs · wrote ${files} files to ${givenPath(out)}/\n`);
}
