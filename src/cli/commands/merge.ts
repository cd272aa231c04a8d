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
import type { StepRecord } from '../../metrics/run-events.js';
import { SHARD_CSV_FILES, holdsSummaryOnly, mergedShardCsv, readUnitSteps, stepDetails } from '../result-details.js';

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
    const shards: ShardFile[] = [];
    for (const file of files) {
      const result = await readResultFile(file);
      // A corpus's units are stored summary-only: their steps, which the pairing with full needs, are read back.
      shards.push({ file, result, ...(holdsSummaryOnly(result) ? { stepsOf: await readUnitSteps(file, result) } : {}) });
    }
    const result = mergeShards(shards, decisionOf(flags));
    checkOutDir(resolve(flags.out));
    const shown = resultForWriting(result, true);
    const details = shards.some((shard) => shard.stepsOf !== undefined) ? stepDetails(shown, stepsByPlanIndex(shards)) : undefined;
    // Units stored summary-only bring no events, answers or needed uses: those rows come from the shards' CSVs.
    const rendered = renderReports(shown, flags.reports, details).map((file) =>
      details !== undefined && (SHARD_CSV_FILES as readonly string[]).includes(file.file) ? mergedShardCsv(file.file, shards, result.units.length) : file,
    );
    const written = await writeReportFiles(resolve(flags.out), rendered);
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

/** The steps of each merged unit by plan index, from the shard that ran it. */
function stepsByPlanIndex(shards: readonly ShardFile[]): (planIndex: number) => readonly StepRecord[] {
  const where = new Map<number, { shard: ShardFile; position: number }>();
  for (const shard of shards) shard.result.shard?.units.forEach((planIndex, position) => where.set(planIndex, { shard, position }));
  return (planIndex) => {
    const at = where.get(planIndex);
    if (at === undefined) return [];
    return at.shard.stepsOf?.(at.position) ?? at.shard.result.units[at.position]?.steps ?? [];
  };
}
