import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { countSteps } from '../../transcript/structure.js';
import { generateSession, syntheticOptionsSchema, type SyntheticOptions } from '../../transcript/synthetic/generate.js';
import { serializeTranscript, writeTranscript } from '../../transcript/write.js';
import { FACT_POSITIONS, type FactPosition } from '../../transcript/synthetic/placement.js';
import { addExamples, addOutOption, outOf, parseChoice, parseList, parsePositiveInt } from '../options.js';
import { runGenerateLike, type LikeFlags } from '../generate-like.js';
import { checkOutFile } from '../out-dir.js';
import { describeSchemaError } from '../../validate.js';

interface GenerateFlags {
  steps?: number;
  seed?: number;
  dialect?: 'gemini' | 'openai';
  toolOutputTokens?: number;
  tasks?: number;
  timed?: boolean;
  facts?: number;
  hard?: boolean;
  factPosition?: FactPosition;
  model?: string;
  contextWindow?: number;
  out?: string;
  output?: string;
  like?: string[];
  fit?: string;
  count?: number;
  seeds?: number;
  check?: string[];
  window?: number;
  strategies?: string[];
  workers?: number;
  from?: string;
}

/** Flags that only `--like` reads, and those it cannot take (they shape the plain generator's sessions). */
const LIKE_ONLY = ['count', 'seeds', 'check', 'window', 'strategies', 'workers', 'from'] as const;
const PLAIN_ONLY = ['dialect', 'toolOutputTokens', 'tasks', 'timed', 'facts', 'hard', 'factPosition', 'model', 'contextWindow'] as const;

/** The flag of each generator option, so a rejected value is reported as the user typed it. */
const FLAG_OF: Record<keyof SyntheticOptions, string> = {
  steps: '--steps',
  seed: '--seed',
  dialect: '--dialect',
  toolOutputTokens: '--tool-output-tokens',
  tasks: '--tasks',
  timed: '--timed',
  facts: '--facts',
  hard: '--hard',
  factPosition: '--fact-position',
  model: '--model',
  contextWindow: '--context-window',
};

export function register(program: Command): void {
  const command = program
    .command('generate')
    .description(
      'write a seeded synthetic coding-agent session with planted facts and probes (*.ctx.jsonl), or (--like) sessions drawn from a fit of your own logs',
    )
    .option('--steps <n>', 'assistant messages (steps) in the session (default 40)', parsePositiveInt('--steps'))
    .option('--seed <s>', 'seed; the same flags always give the same file (default 1)', parsePositiveInt('--seed'))
    .option('--dialect <name>', 'gemini (default) or openai', parseChoice('--dialect', ['gemini', 'openai'] as const))
    .option('--tool-output-tokens <n>', 'average size of a tool result in tokens (default 1500)', parsePositiveInt('--tool-output-tokens'))
    .option('--tasks <n>', 'number of tasks (default steps / 8)', parsePositiveInt('--tasks'))
    .option('--timed', 'record message times from 2026-01-01T00:00:00Z')
    .option('--facts <n>', 'planted facts, each with a probe (default 6)', parsePositiveInt('--facts'))
    .option('--hard', 'harder probes: updated values, look-alike distractors, early-only facts, "not in the session" questions')
    .option(
      '--fact-position <where>',
      'where a planted fact sits in its tool output: uniform (default), head or tail',
      parseChoice('--fact-position', FACT_POSITIONS),
    )
    .option('--model <name>', 'model named in the header (default gemini-2.5-flash or gpt-4.1)')
    .option('--context-window <tokens>', 'context window recorded in the header', parsePositiveInt('--context-window'))
    .option(
      '--like <logs...>',
      'fit the generator to these real logs (any format import reads) and write sessions drawn from the fit, with fit.json, to the -o folder',
    )
    .option('--fit <file>', 'draw the sessions from this fit.json (written by --like) instead of fitting logs; --check still takes --like as the fitted logs')
    .option('--count <n>', 'with --like: sessions to write (default: as many as logs)', parsePositiveInt('--count'))
    .option(
      '--check <logs...>',
      'with --like: rank strategies on the fitted logs, on these unseen ones and on the sessions, and print the Spearman figures (exit 1 when their mean over --seeds falls more than 0.1 short)',
    )
    .option(
      '--seeds <n>',
      "with --check: draw the sessions with n seeds, --seed on (each seed's in seed-<s>/ when n > 1), and judge on the mean Spearman (default 3)",
      parseSeeds,
    )
    .option('--window <tokens>', 'with --check: the context window of every replay (default 32000)', parsePositiveInt('--window'))
    .option('--strategies <list>', 'with --check: the strategies to rank (default: ten of different kinds)', parseList)
    .option('--workers <n>', 'with --check: worker threads (default 1)', parsePositiveInt('--workers'))
    .option('--from <format>', "with --like: the logs' format when their content cannot tell");
  addOutOption(command, 'where to write the transcript (default: stdout); with --like, the folder of the sessions');
  addExamples(command, [
    ['ctxbench generate --steps 200 -o s.ctx.jsonl', 'a 200-step session with 6 planted facts and their probes'],
    ['ctxbench generate --hard --facts 12 --dialect openai | head -3', 'to stdout'],
    ['ctxbench generate -o s.ctx.jsonl && ctxbench run s.ctx.jsonl', 'generate, then replay it through every strategy'],
    ['ctxbench generate --like ~/.codex/sessions/2026/*/*/*.jsonl --count 20 --steps 300 -o like/', 'twenty 300-step sessions like your own Codex logs'],
    [
      'ctxbench generate --like a/*.traj.json --check b/*.traj.json -o like/',
      'do sessions like A rank strategies as the unseen logs B do? (mean over 3 seeds)',
    ],
    ['ctxbench generate --fit like/fit.json --count 50 --seed 2 -o like2/', 'fifty more sessions from that fit, without reading the logs again'],
  ]);
  command.action(async (flags: GenerateFlags) => {
    if (flags.like !== undefined || flags.fit !== undefined) return runLike(flags);
    const stray = LIKE_ONLY.find((key) => flags[key] !== undefined);
    if (stray !== undefined) throw new UsageError(`--${kebab(stray)} goes with --like`);
    const transcript = generateSession(toOptions(flags));
    const out = outOf(flags);
    if (out !== undefined) checkOutFile(out);
    if (out === undefined) {
      process.stdout.write(serializeTranscript(transcript));
      return;
    }
    await writeTranscript(transcript, out);
    const probes = transcript.events.filter((event) => event.type === 'probe').length;
    process.stdout.write(`${out}: ${countSteps(transcript.events)} steps, ${probes} probes (${transcript.header.id})\n`);
  });
}

function runLike(flags: GenerateFlags): Promise<void> {
  const stray = PLAIN_ONLY.find((key) => flags[key] !== undefined);
  if (stray !== undefined) throw new UsageError(`--${kebab(stray)} does not go with --like: the fit decides it`);
  const { like = [], fit, count, steps, seed, seeds, check, window, strategies, workers, from } = flags;
  const likeFlags: LikeFlags = { like, ...definedOf({ fit, count, steps, seed, seeds, check, window, strategies, workers, from }) };
  return runGenerateLike(likeFlags, outOf(flags));
}

/** `--seeds <n>`: at least one seed. */
function parseSeeds(value: string): number {
  const n = parsePositiveInt('--seeds')(value);
  if (n === 0) throw new UsageError(`--seeds expects at least 1 seed, got "${value}"`);
  return n;
}

function definedOf<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Maps flags to generator options, validated here so that errors name the flag, not the option. */
function toOptions(flags: GenerateFlags): SyntheticOptions {
  const options = Object.fromEntries(Object.entries(flags).filter(([key, value]) => key !== 'out' && key !== 'output' && value !== undefined));
  const parsed = syntheticOptionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const { path, message } = describeSchemaError(parsed.error, 'invalid value');
  throw new UsageError(`${FLAG_OF[String(path[0] ?? '') as keyof SyntheticOptions] ?? 'generate'}: ${message}`);
}
