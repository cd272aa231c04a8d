import { z } from 'zod';
import type { RecordedUsage } from '../../types.js';
import type { Writable } from '../../draft.js';

const count = z.number().int().min(0).nullish();

/**
 * OpenAI-shaped usage as OpenAI-compatible gateways record it (LiteLLM, OpenRouter): `prompt_tokens`
 * includes the cached part; LiteLLM may also carry Anthropic's `cache_read_input_tokens`.
 */
export const openAiUsageSchema = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  prompt_tokens_details: z.looseObject({ cached_tokens: count }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: count }).nullish(),
  cache_read_input_tokens: count,
});

/** The canonical usage of an OpenAI-shaped record, or undefined when it counts nothing. */
export function convertOpenAiUsage(usage: z.infer<typeof openAiUsageSchema> | null | undefined): RecordedUsage | undefined {
  if (usage == null || (usage.prompt_tokens == null && usage.completion_tokens == null)) return undefined;
  const result: Writable<RecordedUsage> = { input: usage.prompt_tokens ?? 0, output: usage.completion_tokens ?? 0 };
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.cache_read_input_tokens;
  if (cached != null) result.cachedInput = cached;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (reasoning != null) result.reasoning = reasoning;
  return result;
}
