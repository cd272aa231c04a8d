import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { isLogFolder, isTranscriptFile } from '../scenario/ad-hoc.js';
import { distinctScenarios } from '../scenario/distinct-names.js';
import { expandScenarioPaths, loadScenarioFile, type LoadedScenario } from '../scenario/load.js';
import { detectFormat } from '../transcript/importers/index.js';
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
    const first = loaded.logFiles?.[0];
    const transcript = await loadTranscript(
      first !== undefined && source.kind === 'file' ? { ...source, path: first } : source,
      scenarioSeed(loaded, overrides),
    );
    const scenario = resolveScenario(loaded, transcript, overrides);
    const settings = resolveLogSettings(loaded.data, transcript, overrides);
    const format = transcript.header.source?.format;
    const logs = loaded.logFiles;
    const probes =
      scenario.probesGenerate !== undefined
        ? `probes: generate     # ${logs !== undefined ? 'logs hold' : 'the log holds'} no probes: up to 20 generated from ${logs !== undefined ? 'each' : 'it'} (paths, commands, errors, numbers, decisions)`
        : "# probes: the transcript's own";
    const from = (text: string): string => (logs !== undefined ? text.replace(/\bthe log's\b/, "the first log's") : text);
    const strategies =
      selected.length > 0
        ? `strategies: [${selected.join(', ')}]`
        : `strategies: [all]     # every registered strategy (${strategyNames().length}); list some, or pass --strategies`;
    parts.push(
      [
        logs !== undefined
          ? `# ${displayPath(resolve(path))}/ is a folder of ${logs.length} logs, not a scenario: run as this ad-hoc scenario, one corpus over them`
          : `# ${displayPath(resolve(path))} is a transcript, not a scenario: run as this ad-hoc scenario`,
        '# (save it as a .yaml file beside the transcript to change it; ctxbench strategies lists the options)',
        `name: ${scenario.name}`,
        logs !== undefined
          ? `transcript: ${basename(resolve(path))}/     # ${await describeFormats(logs, overrides.from)}`
          : `transcript: ${basename(path)}${format !== undefined ? `     # ${format}` : ''}`,
        ...(loaded.data.format !== undefined ? [`format: ${loaded.data.format}`] : []),
        `provider: ${scenario.provider}     # ${from(settings.provider.from)}`,
        `model: ${scenario.model}     # ${from(settings.model.from)}`,
        `window: ${scenario.window}     # ${from(settings.window.from)}`,
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
 * The ad-hoc scenarios among `paths` (transcripts, folders of logs), named as the run will name
 * them: a name two of them (or one and a scenario file) share is made distinct
 * (scenario/distinct-names.ts), so the scenario files are read too, but only when an ad-hoc one is
 * given. Scenario files are told by their name alone: no file system call for them when there is none.
 */
async function adHocScenariosOf(paths: readonly string[], from: string | undefined): Promise<LoadedScenario[]> {
  const adHoc: string[] = [];
  for (const path of paths) {
    if (/\.ya?ml$/i.test(path)) continue;
    const info = await stat(path).catch(() => undefined);
    const folder = info?.isDirectory() === true && (await isLogFolder(path, from));
    if (folder || (info?.isFile() === true && (await isTranscriptFile(path, from)))) adHoc.push(resolve(path));
  }
  if (adHoc.length === 0) return [];
  const loaded: LoadedScenario[] = [];
  for (const file of await expandScenarioPaths(paths, from)) loaded.push(await loadScenarioFile(file, from !== undefined ? { from } : {}));
  return distinctScenarios(loaded).filter((scenario) => scenario.adHoc === true && adHoc.includes(scenario.file));
}

/** `6 logs: 4 claude-code, 2 codex`: the formats of a folder's logs, as import detects them. */
async function describeFormats(files: readonly string[], from: string | undefined): Promise<string> {
  const counts = new Map<string, number>();
  for (const file of files) {
    const format = from ?? (await detectFormat(file).catch(() => undefined))?.name ?? 'canonical';
    counts.set(format, (counts.get(format) ?? 0) + 1);
  }
  return `${files.length} logs: ${[...counts].map(([format, n]) => `${n} ${format}`).join(', ')}`;
}

/** A model's prices per million tokens as the run will cost it, with their source. */
function describePrice(model: string, override: PriceOverride | undefined): string {
  const price = resolvePrice(model, override);
  if (price === undefined) return `${model} is not in the price table: costs are not computed (give prices:)`;
  const usd = (x: number): string => `$${Number(x.toFixed(4))}`;
  const write = price.cacheWrite > 0 ? ` · cache write ${usd(price.cacheWrite)}` : '';
  return `${usd(price.input)} in · ${usd(price.cachedInput)} cached${write} · ${usd(price.output)} out per million tokens (${price.source}, ${price.asOf})`;
}
