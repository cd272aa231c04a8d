#!/usr/bin/env node
/**
 * One measurement of `npm run bench`, in a process of its own so that each starts cold (no
 * tokenizer cache from an earlier one) and its peak RSS is its own. Prints one JSON line:
 * `{ seconds, cpuSeconds, maxRssMiB, note }`.
 *
 *   measure.js floor <scenario.yaml>            read the scenario's transcript, tokenize each distinct text once
 *   measure.js run <scenario file|dir> <workers> runSuite, mocked, no report written
 */
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { loadTranscript } from '../scenario/load-transcript.js';
import { countTokens, tokenizerStats, toolCallText } from '../tokens/tokenizer.js';
import { runSuite } from '../run/run-suite.js';
import { withRunMemos } from '../memo.js';
import { tuneV8 } from '../v8-tuning.js';

interface Measurement {
  seconds: number;
  cpuSeconds: number;
  maxRssMiB: number;
  note: string;
}

/** The floor: the transcript read (as a run reads it) and every distinct text tokenized once. */
/** Reading the transcript and tokenizing each distinct text once (the run's memos hold the counts, as a run's do). */
async function floor(scenarioFile: string): Promise<string> {
  return withRunMemos({}, () => readAndCount(scenarioFile));
}

async function readAndCount(scenarioFile: string): Promise<string> {
  const data = parse(await readFile(scenarioFile, 'utf8')) as { transcript: string | { generate: Record<string, unknown> }; seed?: number };
  const source =
    typeof data.transcript === 'string'
      ? { kind: 'file' as const, path: resolve(dirname(scenarioFile), data.transcript), lenient: false }
      : { kind: 'synthetic' as const, options: data.transcript.generate };
  const transcript = await loadTranscript(source, data.seed ?? 1);
  let messages = 0;
  for (const event of transcript.events) {
    if (event.type !== 'message') continue;
    messages += 1;
    countTokens('o200k_base', event.text);
    if (event.thinking !== undefined) countTokens('o200k_base', event.thinking);
    for (const call of event.toolCalls ?? []) countTokens('o200k_base', toolCallText(call));
  }
  return `${messages} messages, ${tokenizerStats().tokenized} distinct texts`;
}

async function run(scenarios: string, workers: number): Promise<string> {
  const result = await runSuite({ scenarios: [scenarios], workers });
  const steps = result.units.reduce((n, u) => n + u.summary.steps_completed, 0);
  return `${result.units.length} units, ${steps} steps`;
}

async function main(): Promise<void> {
  const [kind, target, workers] = process.argv.slice(2);
  if (target === undefined) throw new Error('usage: measure.js floor|run <scenario> [workers]');
  const started = performance.now();
  const cpu = process.cpuUsage();
  const note = kind === 'floor' ? await floor(target) : await run(target, Number(workers ?? '1'));
  const used = process.cpuUsage(cpu);
  const measurement: Measurement = {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    note,
  };
  process.stdout.write(`${JSON.stringify(measurement)}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  // As the CLI runs (src/cli/main.ts), for the floor as for the runs.
  tuneV8();
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
