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
import { isCorpus } from '../../metrics/corpus.js';
import { holdsSummaryOnly } from '../result-details.js';
import { SHARD_CSV_FILES, mergedShardCsv } from '../shard-csv.js';
import { readShardSteps, type ShardSteps } from '../shard-steps.js';
import { STEPS_PARQUET, stepParquetFile } from '../../report/parquet.js';
import { storedDetails, storedForm } from '../../report/json.js';
import type { ReportFile, UnitDetails } from '../../report/types.js';

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
  command.action(async (files: string[], flags: MergeFlags) => {
    const shards: (ShardFile & { steps?: ShardSteps })[] = [];
    for (const file of files) {
      const result = await readResultFile(file);
      // A corpus's units are stored summary-only: their steps, which the pairing with full needs, are read back.
      const steps = holdsSummaryOnly(result) ? await readShardSteps(file, result) : undefined;
      shards.push({ file, result, ...(steps !== undefined ? { steps, pairedStepsOf: steps.pairedOf } : {}) });
    }
    const result = mergeShards(shards, decisionOf(flags));
    checkOutDir(resolve(flags.out));
    const shown = resultForWriting(result, true);
    const written = await writeReportFiles(resolve(flags.out), renderMerged(shown, flags.reports, shards));
    markOutDir(resolve(flags.out), written, { prune: true });
    if (flags.quiet === true) return;
    const terminal = escapeControlDeep(result);
    process.stdout.write(`ctxbench ${result.tool.version} · ${describeSeed(result)} · ${result.mode} providers · merged ${files.length} shards\n\n`);
    if (terminal.recommendation !== undefined)
      process.stdout.write(`${renderTerminalRecommendation(terminal.recommendation, { color: useColor(process.stdout) })}\n`);
    process.stdout.write(renderTerminalTable(terminal, { color: useColor(process.stdout), width: process.stdout.columns ?? 120 }));
    process.stdout.write(`\n${result.units.length} runs · wrote ${written.length} files to ${givenPath(flags.out)}/\n`);
  });
}

/**
 * The reports of the merged result. Units stored summary-only bring no steps, events, answers or
 * needed uses: the CSVs' rows are copied from the shards' files, and `steps.parquet` is written
 * again from each unit's rows read back from its shard's file, one unit at a time.
 */
function renderMerged(shown: RunResult, formats: string[] | undefined, shards: readonly (ShardFile & { steps?: ShardSteps })[]): ReportFile[] {
  if (!shards.some((shard) => shard.steps !== undefined)) return renderReports(shown, formats);
  const where = new Map<number, { shard: ShardFile & { steps?: ShardSteps }; position: number }>();
  for (const shard of shards) shard.result.shard?.units.forEach((planIndex, position) => where.set(planIndex, { shard, position }));
  // The one unit whose steps were read back, for the Parquet writer to take as it renders it.
  let current: { index: number; unit: UnitResult } | undefined;
  const details: UnitDetails = {
    count: shown.units.length,
    load(i) {
      const unit = shown.units[i] as UnitResult;
      if (!isCorpus([unit])) return unit;
      if (current?.index !== i) throw new Error(`merge: the steps of unit ${i} were not read back before it was rendered`);
      return current.unit;
    },
  };
  const stored = storedDetails(storedForm(shown), details);
  const loadUnit = async (i: number): Promise<UnitResult> => {
    const unit = shown.units[i] as UnitResult;
    const at = where.get(i);
    if (isCorpus([unit])) current = { index: i, unit: { ...unit, steps: (await at?.shard.steps?.load(at.position)) ?? [] } };
    return stored.load(i);
  };
  return renderReports(shown, formats, details).map((file) => {
    if ((SHARD_CSV_FILES as readonly string[]).includes(file.file)) return mergedShardCsv(file.file, shards, shown.units.length);
    return file.file === STEPS_PARQUET ? stepParquetFile(shown.units.length, loadUnit) : file;
  });
}
