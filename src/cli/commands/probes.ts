import type { Command } from 'commander';
import { resolve } from 'node:path';
import { writeFileAtomic } from '../../report/write.js';
import { UsageError } from '../../errors.js';
import { generateProbes } from '../../probes/generate.js';
import { readTranscript } from '../../transcript/read.js';
import { parsePositiveInt } from '../options.js';

interface GenerateFlags {
  max?: number;
  seed?: number;
  output?: string;
  lenient?: boolean;
}

/** `ctxbench probes generate`: probes from a canonical transcript, as a probe side file. */
export function register(program: Command): void {
  const probes = program.command('probes').description('work with probe questions (recall measurement)');
  probes
    .command('generate')
    .description('generate probes from a canonical transcript (paths, commands, errors, numbers, decisions)')
    .argument('<transcript>', 'canonical transcript (*.ctx.jsonl)')
    .option('--max <n>', 'at most this many probes (default 20)', parsePositiveInt('--max'))
    .option('--seed <n>', 'seed of the choice when there are more candidates than --max', parsePositiveInt('--seed'))
    .option('-o, --output <file>', 'write the probes to this file (default: stdout)')
    .option('--lenient', 'skip malformed transcript lines instead of failing')
    .action(async (file: string, flags: GenerateFlags) => {
      const transcript = await readTranscript(file, { lenient: flags.lenient === true });
      const generated = generateProbes(transcript, {
        ...(flags.max === undefined ? {} : { max: flags.max }),
        ...(flags.seed === undefined ? {} : { seed: flags.seed }),
      });
      const text = `${JSON.stringify({ probes: generated }, null, 2)}\n`;
      if (flags.output === undefined) {
        process.stdout.write(text);
        return;
      }
      try {
        await writeFileAtomic(resolve(flags.output), text);
      } catch (e) {
        throw new UsageError(`cannot write ${flags.output}: ${(e as Error).message}`);
      }
      process.stderr.write(`ctxbench: wrote ${generated.length} probes to ${flags.output}\n`);
    });
}
