/**
 * tri-modal's context triggers in the window of the run (README, "tri-modal thresholds"). Seed
 * 001 wrote them for a 1M-token window: 50k (semantic) and 200k (standard). Given as a share of
 * the window (`semanticShare`, `standardShare`) they mean the same in every window; given as
 * tokens they are used as they are (a trigger not given keeps its default). Both left to their
 * defaults in a window where one of them cannot fire (a trigger at or above the window), both
 * are scaled together to the room the strategy controls, keeping their ratio to the 1M window
 * they were written for: trigger = hidden prefix + default × (window − hidden prefix) / 1,000,000.
 * The hidden prefix (a replayed log's system prompt and tools, sent with every request) is a
 * floor no flush can go below; a trigger scaled under it would fire at every step.
 */
const REFERENCE_WINDOW = 1_000_000;
const DEFAULT_SEMANTIC = 50_000;
const DEFAULT_STANDARD = 200_000;
/**
 * Hysteresis: after a flush (or a flush that could not shrink the context) left `after` tokens,
 * a context trigger fires again only once the context has grown past `after` by this share of
 * the trigger's room (trigger − hidden prefix). In the 1M window the seed was written for, a
 * flush leaves ~5k and the 50k trigger lies far beyond this; in a small window it stops a
 * trigger sitting just above what a flush leaves from firing at every step.
 */
const REARM_SHARE = 0.5;

export interface ThresholdOptions {
  semanticTokens?: number | undefined;
  standardTokens?: number | undefined;
  semanticShare?: number | undefined;
  standardShare?: number | undefined;
}

export interface Triggers {
  semantic: number;
  standard: number;
  /** The request tokens no flush removes (the replayed log's hidden prefix); 0 if none. */
  floor: number;
  /** Set when a default was scaled to the window: the rule, for the action log. */
  scaled?: string;
}

export function resolveTriggers(o: ThresholdOptions, window: number, hiddenPrefix = 0): Triggers {
  const given = [o.semanticTokens, o.standardTokens, o.semanticShare, o.standardShare].some((v) => v !== undefined);
  const scaling = !given && (DEFAULT_STANDARD >= window || DEFAULT_SEMANTIC >= window);
  const room = Math.max(0, window - hiddenPrefix);
  const pick = (share: number | undefined, tokens: number | undefined, fallback: number): number => {
    if (share !== undefined) return Math.round(share * window);
    if (tokens !== undefined) return tokens;
    return scaling ? hiddenPrefix + Math.round((fallback * room) / REFERENCE_WINDOW) : fallback;
  };
  const triggers: Triggers = {
    semantic: pick(o.semanticShare, o.semanticTokens, DEFAULT_SEMANTIC),
    standard: pick(o.standardShare, o.standardTokens, DEFAULT_STANDARD),
    floor: hiddenPrefix,
  };
  if (scaling) {
    triggers.scaled =
      `default triggers (50k semantic / 200k standard, written for a 1M window) scaled to the ${window}-token window: ` +
      `hidden prefix ${hiddenPrefix} + trigger × ${room} / 1,000,000 → semantic ${triggers.semantic}, standard ${triggers.standard}`;
  }
  return triggers;
}

/**
 * Whether a context of `tokens` passes `trigger`, given the size the last flush left (`after`,
 * undefined: no flush yet): above the trigger and, after a flush, grown past the hysteresis.
 */
export function passes(tokens: number, trigger: number, floor: number, after: number | undefined): boolean {
  if (tokens <= trigger) return false;
  return after === undefined || tokens > after + REARM_SHARE * Math.max(0, trigger - floor);
}

/** The trigger lines the reports draw for a strategy that uses tri-modal's triggers (no hidden prefix known here). */
export function triggerLines(o: ThresholdOptions, window: number): { label: string; tokens: number }[] {
  const t = resolveTriggers(o, window);
  return [
    { label: 'semantic', tokens: t.semantic },
    { label: 'standard', tokens: t.standard },
  ];
}
