import type { Command } from 'commander';
import { resolve } from 'node:path';
import { writeFileAtomic } from '../../report/write.js';
import { UsageError } from '../../errors.js';
import { generateProbes } from '../../probes/generate.js';
import { DEFAULT_MIN_DISTANCE, extractNeededUses } from '../../probes/needed/extract.js';
import { firstShareOfSteps } from '../../probes/needed/cut.js';
import type { NeededUse } from '../../probes/needed/types.js';
import type { Transcript } from '../../transcript/types.js';
import { loadTranscript } from '../../scenario/load-transcript.js';
import { getImporter, importerNames } from '../../transcript/importers/index.js';
import { addExamples, addOutOption, outOf, parsePositiveInt } from '../options.js';

interface NeededFlags {
  from?: string;
  minDistance?: number;
  cut?: number;
  json?: boolean;
  lenient?: boolean;
}

async function loadLog(file: string, flags: { from?: string; lenient?: boolean }): Promise<Transcript> {
  if (flags.from !== undefined) getImporter(flags.from);
  return loadTranscript({ kind: 'file', path: file, lenient: flags.lenient === true, ...(flags.from !== undefined ? { format: flags.from } : {}) }, 0);
}

function renderNeeded(uses: readonly NeededUse[]): string {
  const rows = uses.map((u) => `${String(u.useStep).padStart(5)}  ${String(u.sourceStep).padStart(6)}  ${u.kind.padEnd(10)}  ${JSON.stringify(u.fact)}`);
  return `${['  use  source  kind        fact', ...rows, `${uses.length} needed use${uses.length === 1 ? '' : 's'}`].join('\n')}\n`;
}

function parseShare(value: string): number {
  const share = Number(value);
  if (!(share > 0 && share <= 1)) throw new UsageError(`--cut: expected a share of the steps above 0 and at most 1 (e.g. 0.5), got '${value}'`);
  return share;
}

/** `ctxbench probes needed`: the facts a session's own future used (docs/probes.md). */
function registerNeeded(probes: Command): void {
  const needed = probes
    .command('needed')
    .description('list the needed facts of a log: each specific an assistant message or tool call used that was last seen at least --min-distance steps before')
    .argument('<log>', 'canonical transcript (*.ctx.jsonl) or an agent log (format detected as by import)')
    .option('--from <format>', `the log's format when its content cannot tell (${importerNames().join(', ')})`)
    .option(
      '--min-distance <steps>',
      `steps between the last sighting and the use (default ${DEFAULT_MIN_DISTANCE}; 0: any earlier sighting)`,
      parsePositiveInt('--min-distance'),
    )
    .option('--cut <share>', 'read only the first share of the steps (0 < share <= 1; 0.5: the first half): the log cut short, as a held-out check', parseShare)
    .option('--json', 'print the uses as JSON: { uses: [{ fact, kind, sourceIndex, sourceStep, useIndex, useStep }] }')
    .option('--lenient', 'skip malformed transcript lines instead of failing');
  addExamples(needed, [
    ['ctxbench probes needed session.jsonl --min-distance 20', 'facts used 20+ steps after they were last seen'],
    ['ctxbench probes needed session.jsonl --cut 0.5', 'the needed uses of the session cut after half its steps'],
  ]);
  needed.action(async (file: string, flags: NeededFlags) => {
    const whole = await loadLog(file, flags);
    const transcript = flags.cut === undefined ? whole : firstShareOfSteps(whole, flags.cut);
    const uses = extractNeededUses(transcript, flags.minDistance === undefined ? {} : { minDistance: flags.minDistance });
    process.stdout.write(flags.json === true ? `${JSON.stringify({ uses }, null, 2)}\n` : renderNeeded(uses));
  });
}

interface GenerateFlags {
  max?: number;
  seed?: number;
  out?: string;
  output?: string;
  from?: string;
  lenient?: boolean;
}

/** `ctxbench probes generate`: probes from any transcript (canonical or an agent's log), as a probe side file. */
export function register(program: Command): void {
  const probes = program.command('probes').description('work with probe questions (recall measurement)');
  addExamples(probes, [['ctxbench probes generate session.jsonl -o probes.json', 'probes from a Claude Code log']]);
  const generate = probes
    .command('generate')
    .description('generate probes from a transcript: canonical *.ctx.jsonl or any log `import` reads (paths, commands, errors, numbers, decisions)')
    .argument('<transcript>', 'canonical transcript (*.ctx.jsonl) or an agent log (format detected as by import)')
    .option('--max <n>', 'at most this many probes (default 20)', parsePositiveInt('--max'))
    .option('--seed <n>', 'seed of the choice when there are more candidates than --max', parsePositiveInt('--seed'))
    .option('--from <format>', `the log's format when its content cannot tell (${importerNames().join(', ')})`)
    .option('--lenient', 'skip malformed transcript lines instead of failing');
  addOutOption(generate, 'write the probes to this file (default: stdout)');
  addExamples(generate, [
    ['ctxbench probes generate s.ctx.jsonl --max 10', 'ten probes, as JSON on stdout'],
    ['ctxbench probes generate rollout.jsonl --from codex -o probes.json', 'from a Codex log, to a side file'],
  ]);
  generate.action(async (file: string, flags: GenerateFlags) => {
    const transcript = await loadLog(file, flags);
    const generated = generateProbes(transcript, {
      ...(flags.max === undefined ? {} : { max: flags.max }),
      ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    });
    const text = `${JSON.stringify({ probes: generated }, null, 2)}\n`;
    const out = outOf(flags);
    if (out === undefined) {
      process.stdout.write(text);
      return;
    }
    try {
      await writeFileAtomic(resolve(out), text);
    } catch (e) {
      throw new UsageError(`cannot write ${out}: ${(e as Error).message}`);
    }
    process.stderr.write(`ctxbench: wrote ${generated.length} probe${generated.length === 1 ? '' : 's'} to ${out}\n`);
  });
  registerNeeded(probes);
}
