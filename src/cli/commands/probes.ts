import type { Command } from 'commander';
import { resolve } from 'node:path';
import { writeFileAtomic } from '../../report/write.js';
import { UsageError } from '../../errors.js';
import { generateProbes } from '../../probes/generate.js';
import { loadTranscript } from '../../scenario/load-transcript.js';
import { getImporter, importerNames } from '../../transcript/importers/index.js';
import { addExamples, addOutOption, outOf, parsePositiveInt } from '../options.js';

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
    if (flags.from !== undefined) getImporter(flags.from);
    const transcript = await loadTranscript(
      { kind: 'file', path: file, lenient: flags.lenient === true, ...(flags.from !== undefined ? { format: flags.from } : {}) },
      0,
    );
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
}
