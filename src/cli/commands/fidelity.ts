import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { compareReplay, poolByFormat, replayFiles } from '../../fidelity/measure.js';
import { renderFidelity } from '../../fidelity/render.js';
import { poolCacheByFormat } from '../../fidelity/cache.js';
import { fitCalibration } from '../../fidelity/fit.js';
import { addExamples } from '../options.js';
import { GateError } from '../../errors.js';

interface FidelityFlags {
  json?: boolean;
  lenient?: boolean;
  fit?: string;
}

export function register(program: Command): void {
  const command = program
    .command('fidelity')
    .description(
      "replay transcripts with recorded (hidden prefix, re-sent reasoning, the agent's compactions) and compare the prompt tokens ctxbench charges with the input tokens the agent recorded",
    )
    .argument('<transcripts...>', 'agent logs (any importable format) or canonical *.ctx.jsonl files')
    .option('--json', 'print the per-step comparison and the per-format errors as JSON')
    .option('--lenient', 'skip broken transcript lines and count them instead of failing')
    .option('--fit <file>', 'fit the per-family calibration (factor, per-tool-call framing) on these logs and write it as JSON');
  addExamples(command, [
    ['ctxbench fidelity fixtures/real/claude-code/*.jsonl', 'charged vs recorded prompt tokens, per format'],
    ['ctxbench fidelity logs/*.jsonl --fit calibration.json', 'fit the calibration on them'],
  ]);
  command.action(async (paths: string[], flags: FidelityFlags) => {
    const measured = await replayFiles(paths, { lenient: flags.lenient === true });
    const files = measured.map((m) => compareReplay(m.transcript, m.replay, m.uncalibrated));
    const report = { strategy: 'recorded' as const, files, formats: poolByFormat(files), cache: poolCacheByFormat(files) };
    process.stdout.write(flags.json === true ? `${JSON.stringify(report, null, 2)}\n` : renderFidelity(report));
    if (flags.fit !== undefined) {
      const fit = fitCalibration(measured);
      await writeFile(flags.fit, `${JSON.stringify(fit, null, 2)}\n`);
      for (const [family, f] of Object.entries(fit)) {
        process.stderr.write(
          `fitted ${family}: ${f.factor} × o200k_base + ${f.perToolCall} per tool call on ${f.files.length} files, ${f.steps} steps ` +
            `(median |error| ${(f.medianAbs * 100).toFixed(2)}%, p95 ${(f.p95Abs * 100).toFixed(2)}%) → ${flags.fit}\n`,
        );
        if (f.undetermined !== undefined) process.stderr.write(`  not determined: ${f.undetermined}; do not use it\n`);
      }
      const undetermined = Object.keys(fit).filter((family) => fit[family]?.undetermined !== undefined);
      if (undetermined.length > 0)
        throw new GateError(`the fit does not determine the calibration of ${undetermined.join(', ')} (written with "undetermined" in ${flags.fit})`);
    }
  });
}
