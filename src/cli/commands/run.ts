import type { Command } from 'commander';
import { resolve } from 'node:path';
import { runSuite } from '../../engine/run-suite.js';
import { renderReports, reporterNames } from '../../report/index.js';
import { writeReportFiles } from '../../report/write.js';
import { renderTerminalTable } from '../../report/terminal.js';
import type { ProviderName } from '../../providers/types.js';
import { bundledSuite, parseChoice, parseList, parsePositiveInt, useColor } from '../options.js';
import { createProgress } from '../progress.js';
import { displayPath } from '../../paths.js';

interface RunFlags {
  strategies?: string[];
  provider: 'mock' | ProviderName;
  providerFormat?: ProviderName;
  model?: string;
  window?: number;
  tpm?: number;
  rpm?: number;
  seed?: number;
  out: string;
  onCrash?: 'stop' | 'continue';
  lenient?: boolean;
  baseUrl?: string;
  reports?: string[];
  quiet?: boolean;
}

export function register(program: Command): void {
  program
    .command('run')
    .description('replay scenarios through strategies and write reports (default: the bundled suite, mocked providers)')
    .argument('[paths...]', 'scenario files or folders', [])
    .option('--strategies <names>', 'comma-separated strategy names or labels', parseList)
    .option('--provider <name>', 'mock (default), gemini or openai (live: needs GEMINI_API_KEY / OPENAI_API_KEY)', parseChoice('--provider', ['mock', 'gemini', 'openai'] as const), 'mock')
    .option('--provider-format <name>', 'provider format in mocked mode (default: the scenario\'s)', parseChoice('--provider-format', ['gemini', 'openai'] as const))
    .option('--model <name>', 'model name for every scenario')
    .option('--window <tokens>', 'context window for every scenario', parsePositiveInt('--window'))
    .option('--tpm <tokens>', 'tokens-per-minute quota for every scenario', parsePositiveInt('--tpm'))
    .option('--rpm <requests>', 'requests-per-minute quota for every scenario', parsePositiveInt('--rpm'))
    .option('--seed <n>', 'seed for every scenario (default: each scenario\'s, else 42)', parsePositiveInt('--seed'))
    .option('--out <dir>', 'output folder', 'reports/latest')
    .option('--on-crash <mode>', 'stop (default) or continue after an unrecovered crash', parseChoice('--on-crash', ['stop', 'continue'] as const))
    .option('--lenient', 'skip invalid transcript lines and count them')
    .option('--base-url <url>', 'OpenAI-compatible base URL (live openai)')
    .option('--reports <formats>', `report formats (default: all of ${reporterNames().join(', ')})`, parseList)
    .option('--quiet', 'print nothing but errors')
    .action(async (paths: string[], flags: RunFlags) => {
      const started = performance.now();
      const progress = createProgress({ quiet: flags.quiet === true });
      const live = flags.provider !== 'mock';
      const provider = live ? (flags.provider as ProviderName) : flags.providerFormat;
      const result = await runSuite({
        scenarios: paths.length > 0 ? paths : [bundledSuite()],
        mode: live ? 'live' : 'mock',
        ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
        overrides: {
          ...(provider !== undefined ? { provider } : {}),
          ...(flags.model !== undefined ? { model: flags.model } : {}),
          ...(flags.window !== undefined ? { window: flags.window } : {}),
          ...(flags.tpm !== undefined ? { tpm: flags.tpm } : {}),
          ...(flags.rpm !== undefined ? { rpm: flags.rpm } : {}),
          ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
          ...(flags.onCrash !== undefined ? { onCrash: flags.onCrash } : {}),
          ...(flags.lenient === true ? { lenient: true } : {}),
          ...(flags.strategies !== undefined ? { strategies: flags.strategies } : {}),
        },
        onUnit: progress.onUnit,
      });
      progress.done();
      const written = await writeReportFiles(resolve(flags.out), renderReports(result, flags.reports));
      if (flags.quiet === true) return;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stdout.write(`ctxbench ${result.tool.version} · seed ${result.seed} · ${result.mode} providers\n\n`);
      process.stdout.write(renderTerminalTable(result, { color: useColor(process.stdout), width: process.stdout.columns ?? 120 }));
      process.stdout.write(`\n${result.units.length} runs in ${seconds} s · wrote ${written.length} files to ${displayPath(resolve(flags.out))}/\n`);
    });
}
