import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { isTranscriptFile } from '../scenario/ad-hoc.js';
import { distinctScenarios } from '../scenario/distinct-names.js';
import { expandScenarioPaths, loadScenarioFile, type LoadedScenario } from '../scenario/load.js';
import { resolveScenario, scenarioSeed, transcriptSource, type ScenarioOverrides } from '../scenario/resolve.js';
import { loadTranscript } from '../scenario/load-transcript.js';
import { strategyNames } from '../strategies/index.js';
import { displayPath } from '../paths.js';
import { resolveLogSettings } from '../scenario/log-settings.js';
import { cacheRulesForModel, describeCacheRules } from '../cache/families.js';
import { resolvePrice, type PriceOverride } from '../pricing/resolve.js';

/**
 * For each transcript among `paths` (given where a scenario is expected), the scenario `run`
 * builds for it, as YAML the user can save and edit, each default commented with where it came
 * from. Scenario files and folders print nothing. The transcript is read here once more, to show
 * the defaults its header decides (provider, model, window) before the run starts.
 */
export async function describeAdHocScenarios(paths: readonly string[], overrides: ScenarioOverrides, selected: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const loaded of await adHocScenariosOf(paths, overrides.from)) {
    const path = loaded.file;
    const source = transcriptSource(loaded, overrides);
    const transcript = await loadTranscript(source, scenarioSeed(loaded, overrides));
    const scenario = resolveScenario(loaded, transcript, overrides);
    const settings = resolveLogSettings(loaded.data, transcript, overrides);
    const format = transcript.header.source?.format;
    const probes =
      scenario.probesGenerate !== undefined
        ? 'probes: generate     # the log holds no probes: up to 20 generated from it (paths, commands, errors, numbers, decisions)'
        : "# probes: the transcript's own";
    const strategies =
      selected.length > 0
        ? `strategies: [${selected.join(', ')}]`
        : `strategies: [all]     # every registered strategy (${strategyNames().length}); list some, or pass --strategies`;
    parts.push(
      [
        `# ${displayPath(resolve(path))} is a transcript, not a scenario: run as this ad-hoc scenario`,
        '# (save it as a .yaml file beside the transcript to change it; ctxbench strategies lists the options)',
        `name: ${scenario.name}`,
        `transcript: ${basename(path)}${format !== undefined ? `     # ${format}` : ''}`,
        ...(loaded.data.format !== undefined ? [`format: ${loaded.data.format}`] : []),
        `provider: ${scenario.provider}     # ${settings.provider.from}`,
        `model: ${scenario.model}     # ${settings.model.from}`,
        `window: ${scenario.window}     # ${settings.window.from}`,
        `# prices: ${describePrice(scenario.model, scenario.prices)}`,
        `promptCache: ${scenario.promptCache}     # ${describeCacheRules(cacheRulesForModel(scenario.model, scenario.promptCache))}; upper-bound: the longest prefix, every time`,
        `seed: ${scenario.seed}`,
        `# quota: none here; add quota: {tpm: 1000000} to replay under a tokens-per-minute limit`,
        probes,
        strategies,
        '',
      ].join('\n'),
    );
  }
  return parts.join('\n');
}

/**
 * The ad-hoc scenarios among `paths`, named as the run will name them: a name two transcripts (or
 * a transcript and a scenario file) share is made distinct (scenario/distinct-names.ts), so the
 * scenario files are read too, but only when a transcript is given. Scenario files are told by
 * their name alone: no file system call for them when there is none.
 */
async function adHocScenariosOf(paths: readonly string[], from: string | undefined): Promise<LoadedScenario[]> {
  const transcripts: string[] = [];
  for (const path of paths) {
    if (/\.ya?ml$/i.test(path)) continue;
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() === true && (await isTranscriptFile(path, from))) transcripts.push(resolve(path));
  }
  if (transcripts.length === 0) return [];
  const loaded: LoadedScenario[] = [];
  for (const file of await expandScenarioPaths(paths)) loaded.push(await loadScenarioFile(file, from !== undefined ? { from } : {}));
  return distinctScenarios(loaded).filter((scenario) => scenario.adHoc === true && transcripts.includes(scenario.file));
}

/** A model's prices per million tokens as the run will cost it, with their source. */
function describePrice(model: string, override: PriceOverride | undefined): string {
  const price = resolvePrice(model, override);
  if (price === undefined) return `${model} is not in the price table: costs are not computed (give prices:)`;
  const usd = (x: number): string => `$${Number(x.toFixed(4))}`;
  const write = price.cacheWrite > 0 ? ` · cache write ${usd(price.cacheWrite)}` : '';
  return `${usd(price.input)} in · ${usd(price.cachedInput)} cached${write} · ${usd(price.output)} out per million tokens (${price.source}, ${price.asOf})`;
}
