import { UsageError } from '../errors.js';
import type { Strategy } from './types.js';
import { full } from './full.js';
import { recorded } from './recorded.js';
import { rollingWindow } from './rolling-window.js';
import { surgicalEviction } from './surgical-eviction.js';
import { tieredTruncation } from './tiered-truncation.js';
import { stateAnchor } from './state-anchor.js';
import { pipeline } from './pipeline.js';
import { codexRebuild } from './codex-rebuild.js';
import { triModal } from './tri-modal.js';
import { reactiveCompress } from './reactive-compress.js';
import { gatekeeper } from './gatekeeper.js';
import { sigma } from './sigma.js';
import { observationMasking } from './observation-masking.js';
import { llmSummaryEveryN } from './llm-summary-every-n.js';
import { hybrid } from './hybrid.js';
import { clearToolResults } from './clear-tool-results.js';
import { anthropicContextEditing } from './anthropic-context-editing.js';
import { claudeCodeAutocompact } from './claude-code-autocompact.js';
import { geminiCliCompress } from './gemini-cli-compress.js';
import { openhandsCondenser } from './openhands-condenser.js';
import { anchoredSummary } from './anchored-summary.js';

/** Every registered strategy, by name (= file name). Adding one is one line here. */
export const strategies = {
  full,
  'rolling-window': rollingWindow,
  'surgical-eviction': surgicalEviction,
  'tiered-truncation': tieredTruncation,
  'state-anchor': stateAnchor,
  pipeline,
  'codex-rebuild': codexRebuild,
  'tri-modal': triModal,
  'reactive-compress': reactiveCompress,
  gatekeeper,
  sigma,
  'observation-masking': observationMasking,
  'llm-summary-every-n': llmSummaryEveryN,
  hybrid,
  'clear-tool-results': clearToolResults,
  'anthropic-context-editing': anthropicContextEditing,
  'claude-code-autocompact': claudeCodeAutocompact,
  'gemini-cli-compress': geminiCliCompress,
  'openhands-condenser': openhandsCondenser,
  'anchored-summary': anchoredSummary,
  recorded,
} satisfies Record<string, Strategy>;

export function strategyNames(): string[] {
  return Object.keys(strategies);
}

/** Looks a strategy up by name; an unknown name fails with the list of known ones. */
export function getStrategy(name: string): Strategy {
  const found = (strategies as Record<string, Strategy>)[name];
  if (found === undefined) {
    throw new UsageError(`unknown strategy "${name}"; known strategies: ${strategyNames().join(', ')}`);
  }
  return found;
}
