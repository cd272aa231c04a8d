import type { Command } from 'commander';
import { escapeControlDeep } from '../../control-chars.js';
import { resolve } from 'node:path';
import { readResultFile } from '../../check/load-result.js';
import { checkShards, joinShards, type CheckedShards, type ShardFile } from '../../run/shard.js';
import { renderReports, reporterNames, resolveReporter } from '../../report/index.js';
import { hasRotRecall } from '../../report/csv.js';
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
import type { RunResult } from '../../metrics/types.js';
import { readShardLogs } from '../shard-logs.js';
import { createStepFiles, type StepFiles } from '../step-files.js';
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
  const names = flags.reports ?? reporterNames();
  // An unknown format is refused before any shard is read.
  for (const name of names) resolveReporter(name);
  const shards: (ShardFile & { logs?: ReturnType<typeof readShardLogs> })[] = [];
  const opened: { close(): void }[] = [];
  let steps: StepFiles | undefined;
  try {
    for (const file of files) {
      const result = await readResultFile(file);
      const logs = readShardLogs(file, result);
      if (logs !== undefined) opened.push(logs);
      shards.push({ file, result, ...(logs !== undefined ? { logs } : {}) });
    }
    // probes.csv's columns before its first row: the context-length effect's are there when some unit's recall under it is,
    // which a corpus's unit has when a log's answer has, as the shard that took the log has it.
    const rot = shards.some(({ result }) => hasRotRecall(result.units.map((unit) => unit.summary)));
    // The files of a row per step are written as each unit is made, a corpus's combined from the shards' logs: no unit is kept whole.
    steps = createStepFiles(out, { csv: names.includes('csv'), parquet: names.includes('parquet'), rot });
    // The shards' results are let go once checked (nothing else holds them): their corpora's stored units are not read again.
    let shown: RunResult | undefined = mergedForWriting(checkShards(shards.splice(0)), flags, steps, rot);
    // The shards' results and the merged result unredacted are let go here, and the redacted one once
    // rendered unless it is printed: the reports' own copy (report/json.ts storedForm) is the end's peak.
    const rendered = renderReports(shown, names);
    const printed = flags.quiet === true ? undefined : shown;
    shown = undefined;
    const streamed = new Set(steps.files);
    await writeReportFiles(
      out,
      rendered.filter((file) => !streamed.has(file.file)),
    );
    steps.finish();
    const written = rendered.map((file) => resolve(out, file.file));
    markOutDir(out, written, { prune: true });
    // Printed redacted, as run prints: the terminal is a log.
    if (printed !== undefined) printMerged(printed, files.length, written.length, flags.out);
  } finally {
    for (const logs of opened) logs.close();
    steps?.abort();
  }
}

/** The shards merged, each unit's rows written to `steps` as it is made, and the result as it is written (redacted). */
function mergedForWriting(checked: CheckedShards, flags: MergeFlags, steps: StepFiles, rot: boolean): RunResult {
  const result = joinShards(checked, { decision: decisionOf(flags), onUnit: (_index, unit) => steps.add(unit) });
  if (hasRotRecall(result.units.map((unit) => unit.summary)) !== rot)
    throw new Error('merge: probes.csv was begun with other columns than the merged units have');
  return resultForWriting(result, true);
}

function printMerged(result: RunResult, shards: number, files: number, out: string): void {
  const terminal = escapeControlDeep(result);
  process.stdout.write(`ctxbench ${result.tool.version} · ${describeSeed(result)} · ${result.mode} providers · merged ${shards} shards\n\n`);
  if (terminal.recommendation !== undefined)
    process.stdout.write(`${renderTerminalRecommendation(terminal.recommendation, { color: useColor(process.stdout) })}\n`);
  process.stdout.write(renderTerminalTable(terminal, { color: useColor(process.stdout), width: process.stdout.columns ?? 120 }));
  process.stdout.write(`\n${result.units.length} runs · wrote ${files} files to ${givenPath(out)}/\n`);
}
