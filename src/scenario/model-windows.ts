/**
 * Context windows by model (issue 29): the largest prompt a model accepts, for a scenario that
 * names no window and a log whose header records none. Dated, with the page each figure was read
 * on; the longest matching prefix of the model name (after any `vendor/` prefix) wins.
 */
export const MODEL_WINDOWS_AS_OF = '2025-11';

interface WindowEntry {
  tokens: number;
  source: string;
}

const ANTHROPIC = 'https://docs.anthropic.com/en/docs/about-claude/models/overview';
const OPENAI = 'https://platform.openai.com/docs/models';
const GEMINI = 'https://ai.google.dev/gemini-api/docs/models';

/** Claude Sonnet 4 and 4.5 take 1M tokens with the `context-1m-2025-08-07` beta header. */
export const CLAUDE_1M_BETA = {
  tokens: 1_000_000,
  source: 'https://docs.anthropic.com/en/docs/build-with-claude/context-windows (1M beta, context-1m-2025-08-07)',
};

const WINDOWS: Readonly<Record<string, WindowEntry>> = {
  // Every Claude model since Claude 3: 200k (the 1M beta is opt-in; see CLAUDE_1M_BETA).
  claude: { tokens: 200_000, source: ANTHROPIC },
  'gpt-4.1': { tokens: 1_047_576, source: `${OPENAI}/gpt-4.1` },
  // GPT-5 family: a 400k context of which 128k is output, so 272k of prompt.
  'gpt-5': { tokens: 272_000, source: `${OPENAI}/gpt-5 (400,000 context, 128,000 of it output)` },
  'gpt-4o': { tokens: 128_000, source: `${OPENAI}/gpt-4o` },
  'gpt-4-turbo': { tokens: 128_000, source: `${OPENAI}/gpt-4-turbo` },
  'gpt-4-1106-preview': { tokens: 128_000, source: `${OPENAI}/gpt-4-turbo` },
  'gpt-4-0125-preview': { tokens: 128_000, source: `${OPENAI}/gpt-4-turbo` },
  'gpt-4-0613': { tokens: 8_192, source: `${OPENAI}/gpt-4` },
  'gpt-3.5-turbo': { tokens: 16_385, source: `${OPENAI}/gpt-3.5-turbo` },
  o3: { tokens: 200_000, source: `${OPENAI}/o3` },
  'o4-mini': { tokens: 200_000, source: `${OPENAI}/o4-mini` },
  'gemini-3': { tokens: 1_048_576, source: `${GEMINI} (gemini-3-pro-preview input limit)` },
  'gemini-2.5': { tokens: 1_048_576, source: `${GEMINI} (gemini-2.5-pro, -flash, -flash-lite input limit)` },
  'gemini-2.0': { tokens: 1_048_576, source: `${GEMINI} (gemini-2.0-flash input limit)` },
};

/** The table's window of a model, with its source; undefined for a model the table does not know. */
export function windowForModel(model: string): WindowEntry | undefined {
  const name = model.toLowerCase().replace(/^.*\//, '');
  let best: string | undefined;
  for (const key of Object.keys(WINDOWS)) if (name.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  return best === undefined ? undefined : WINDOWS[best];
}

/** Whether a model name carries Claude Code's 1M-context marker (`claude-sonnet-4-5[1m]`). */
export function namesLongContext(model: string): boolean {
  return /\[1m\]$/i.test(model);
}
