import type { Command } from 'commander';
import type { ProviderName } from '../contracts/provider.js';
import type { ScenarioOverrides } from '../scenario/resolve.js';
import { importerNames } from '../transcript/importers/index.js';
import { parseChoice, parseScenarioFlag } from './options.js';
import { CACHE_ESTIMATES, type CacheEstimate } from '../cache/families.js';

/** The scenario overrides `run` and `sweep` share, as commander hands them over. */
export interface ScenarioFlags {
  providerFormat?: ProviderName;
  model?: string;
  window?: number;
  promptCache?: CacheEstimate;
  tpm?: number | 'none';
  rpm?: number | 'none';
  onCrash?: 'stop' | 'continue';
  lenient?: boolean;
  from?: string;
}

/**
 * Flags that override every scenario of a run or a sweep (`--model`, `--window`, `--prompt-cache`, `--tpm`, `--rpm`,
 * `--provider-format`, `--on-crash`, `--lenient`, `--from`): one definition for both commands.
 */
export function addScenarioOptions(command: Command): Command {
  return command
    .option('--from <format>', `the format of transcripts given as paths, when their content cannot tell (${importerNames().join(', ')})`)
    .option(
      '--provider-format <name>',
      "provider format in mocked mode (default: the scenario's)",
      parseChoice('--provider-format', ['gemini', 'openai'] as const),
    )
    .option('--model <name>', 'model name for every scenario')
    .option('--window <tokens>', 'context window for every scenario', parseScenarioFlag('--window', 'window'))
    .option(
      '--prompt-cache <estimate>',
      'implicit prompt caches (OpenAI, Gemini): expected (default: the hit rate calibrated on real logs) or upper-bound',
      parseChoice('--prompt-cache', CACHE_ESTIMATES),
    )
    .option('--tpm <tokens>', 'tokens-per-minute quota for every scenario; none: no quota', parseScenarioFlag('--tpm', 'quota.tpm', true))
    .option('--rpm <requests>', 'requests-per-minute quota for every scenario; none: no quota', parseScenarioFlag('--rpm', 'quota.rpm', true))
    .option('--on-crash <mode>', 'stop (default) or continue after an unrecovered crash', parseChoice('--on-crash', ['stop', 'continue'] as const))
    .option('--lenient', 'skip invalid transcript lines and count them');
}

/** The overrides those flags ask for (`live`: the provider given by --provider wins over --provider-format). */
export function scenarioOverridesOf(flags: ScenarioFlags, liveProvider?: ProviderName): ScenarioOverrides {
  const provider = liveProvider ?? flags.providerFormat;
  return {
    ...(provider !== undefined ? { provider } : {}),
    ...(flags.model !== undefined ? { model: flags.model } : {}),
    ...(flags.window !== undefined ? { window: flags.window } : {}),
    ...(flags.promptCache !== undefined ? { promptCache: flags.promptCache } : {}),
    ...(flags.tpm !== undefined ? { tpm: flags.tpm === 'none' ? null : flags.tpm } : {}),
    ...(flags.rpm !== undefined ? { rpm: flags.rpm === 'none' ? null : flags.rpm } : {}),
    ...(flags.onCrash !== undefined ? { onCrash: flags.onCrash } : {}),
    ...(flags.lenient === true ? { lenient: true } : {}),
    ...(flags.from !== undefined ? { from: flags.from } : {}),
  };
}
