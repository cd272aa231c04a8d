import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { adHocScenario, isTranscriptFile } from '../scenario/ad-hoc.js';
import { resolveScenario, scenarioSeed, transcriptSource, type ScenarioOverrides } from '../scenario/resolve.js';
import { loadTranscript } from '../scenario/load-transcript.js';
import { strategyNames } from '../strategies/index.js';
import { displayPath } from '../paths.js';

/**
 * For each transcript among `paths` (given where a scenario is expected), the scenario `run`
 * builds for it, as YAML the user can save and edit, each default commented with where it came
 * from. Scenario files and folders print nothing. The transcript is read here once more, to show
 * the defaults its header decides (provider, model, window) before the run starts.
 */
export async function describeAdHocScenarios(paths: readonly string[], overrides: ScenarioOverrides, selected: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const path of paths) {
    // Scenario files are told by their name alone: no file system call before the run starts.
    if (/\.ya?ml$/i.test(path)) continue;
    const info = await stat(path).catch(() => undefined);
    if (info === undefined || !info.isFile() || !(await isTranscriptFile(path, overrides.from))) continue;
    const loaded = await adHocScenario(path, overrides.from);
    const source = transcriptSource(loaded, overrides);
    const transcript = await loadTranscript(source, scenarioSeed(loaded, overrides));
    const scenario = resolveScenario(loaded, transcript.header, overrides);
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
        `provider: ${scenario.provider}     # ${overrides.provider !== undefined ? 'from --provider' : `from the transcript's dialect (${transcript.header.dialect ?? 'none'})`}`,
        `model: ${scenario.model}`,
        `window: ${scenario.window}     # ${overrides.window !== undefined ? 'from --window' : transcript.header.contextWindow !== undefined ? "the transcript header's" : `the ${scenario.provider} default`}`,
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
