import type { ProviderName } from '../contracts/provider.js';
import type { SessionHeader, TranscriptEvent } from '../transcript/types.js';
import type { ScenarioFile } from './schema.js';
import type { ScenarioOverrides } from './resolve.js';
import { cacheRulesForModel } from '../cache/families.js';
import { modelPricedAt } from '../pricing/prices.js';
import { CLAUDE_1M_BETA, MODEL_WINDOWS_AS_OF, namesLongContext, windowForModel } from './model-windows.js';

/** What of a transcript decides a scenario's defaults: its header and its recorded usage. */
export interface TranscriptFacts {
  header: SessionHeader;
  events: readonly TranscriptEvent[];
}

/** A resolved setting and where it came from, in words (the ad-hoc scenario prints it). */
interface Setting<T> {
  value: T;
  from: string;
}

export interface LogSettings {
  provider: Setting<ProviderName>;
  model: Setting<string>;
  window: Setting<number>;
}

const DEFAULT_MODEL: Record<ProviderName, string> = { gemini: 'gemini-2.5-flash', openai: 'gpt-4.1' };
const DEFAULT_WINDOW: Record<ProviderName, number> = { gemini: 1_048_576, openai: 1_047_576 };

const int = new Intl.NumberFormat('en-US');

/**
 * Provider format, model and window of a scenario: the command line's, else the scenario file's,
 * else the log's own (issue 29). The log's model decides its family, hence its prices and cache
 * rules (src/pricing/, src/cache/families.ts, both keyed on the model); the window comes from the
 * log's header or, without one, from the dated model table (model-windows.ts) — for Claude 200k,
 * unless the model name carries the 1M marker or the log records a larger prompt.
 */
export function resolveLogSettings(data: ScenarioFile, transcript: TranscriptFacts, overrides: ScenarioOverrides): LogSettings {
  const { header } = transcript;
  const provider = resolveProvider(data, header, overrides);
  const model = resolveModel(data, header, overrides, provider.value);
  const window = resolveWindow(data, transcript, overrides, model.value, provider.value);
  return { provider, model, window };
}

function resolveProvider(data: ScenarioFile, header: SessionHeader, overrides: ScenarioOverrides): Setting<ProviderName> {
  if (overrides.provider !== undefined) return { value: overrides.provider, from: 'from the command line' };
  if (data.provider !== undefined) return { value: data.provider, from: "the scenario's" };
  if (header.dialect === 'gemini') return { value: 'gemini', from: "the log's dialect (gemini)" };
  if (header.dialect === 'anthropic' || (header.model !== undefined && cacheRulesForModel(header.model).family === 'anthropic')) {
    return { value: 'openai', from: 'the wire format the simulator speaks for Claude (it has no anthropic one); priced and cached as Anthropic, by the model' };
  }
  return { value: 'openai', from: "the log's dialect (openai)" };
}

function resolveModel(data: ScenarioFile, header: SessionHeader, overrides: ScenarioOverrides, provider: ProviderName): Setting<string> {
  if (overrides.model !== undefined) return { value: overrides.model, from: 'from --model' };
  if (data.model !== undefined) return { value: data.model, from: "the scenario's" };
  // A live Gemini provider cannot call another vendor's model, nor OpenAI a Gemini one.
  const fits = (model: string): boolean => model.startsWith('gemini') === (provider === 'gemini');
  if (header.model !== undefined && fits(header.model)) return { value: header.model, from: "the log's" };
  const totals = header.totals;
  if (totals?.costUsd !== undefined && totals.input !== undefined && totals.output !== undefined) {
    const priced = modelPricedAt({ costUsd: totals.costUsd, input: totals.input, output: totals.output });
    if (priced !== undefined && fits(priced)) {
      return {
        value: priced,
        from: `the model whose list prices give the log's recorded cost ($${totals.costUsd} for ${int.format(totals.input)} tokens in, ${int.format(totals.output)} out)`,
      };
    }
  }
  return { value: DEFAULT_MODEL[provider], from: `the ${provider} default (the log names no model this provider serves)` };
}

function resolveWindow(data: ScenarioFile, transcript: TranscriptFacts, overrides: ScenarioOverrides, model: string, provider: ProviderName): Setting<number> {
  if (overrides.window !== undefined) return { value: overrides.window, from: 'from --window' };
  if (data.window !== undefined) return { value: data.window, from: "the scenario's" };
  if (transcript.header.contextWindow !== undefined) return { value: transcript.header.contextWindow, from: "the log header's" };
  const entry = windowForModel(model);
  if (entry === undefined) return { value: DEFAULT_WINDOW[provider], from: `the ${provider} default (${model} is not in the window table)` };
  if (cacheRulesForModel(model).family === 'anthropic') {
    if (namesLongContext(model)) return { value: CLAUDE_1M_BETA.tokens, from: `the 1M beta the model name asks for (${CLAUDE_1M_BETA.source})` };
    const largest = largestRecordedPrompt(transcript.events);
    if (largest > entry.tokens) {
      return {
        value: CLAUDE_1M_BETA.tokens,
        from: `the 1M beta: the log records a prompt of ${int.format(largest)} tokens, past Claude's 200k (${CLAUDE_1M_BETA.source})`,
      };
    }
  }
  return { value: entry.tokens, from: `the model table: ${entry.source}, as of ${MODEL_WINDOWS_AS_OF}` };
}

/** The largest prompt the log records for one call (input, cached part included); 0 without usage. */
function largestRecordedPrompt(events: readonly TranscriptEvent[]): number {
  let largest = 0;
  for (const e of events) if (e.type === 'message' && e.usage?.input !== undefined && e.usage.input > largest) largest = e.usage.input;
  return largest;
}
