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
  recorded,
} satisfies Record<string, Strategy>;

export type StrategyName = keyof typeof strategies;

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
