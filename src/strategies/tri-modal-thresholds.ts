/**
 * tri-modal's context triggers in the window of the run (README, "tri-modal thresholds"). Seed
 * 001 wrote them for a 1M-token window: 50k (semantic) and 200k (standard). Given as a share of
 * the window (`semanticShare`, `standardShare`) they mean the same in every window; given as
 * tokens they are used as they are (a trigger not given keeps its default). Both left to their defaults in a window where one of them cannot
 * fire (a trigger at or above the window), both defaults are scaled together, keeping their ratio
 * to the 1M window they were written for: trigger = default × window / 1,000,000.
 */
export const REFERENCE_WINDOW = 1_000_000;
export const DEFAULT_SEMANTIC = 50_000;
export const DEFAULT_STANDARD = 200_000;

export interface ThresholdOptions {
  semanticTokens?: number | undefined;
  standardTokens?: number | undefined;
  semanticShare?: number | undefined;
  standardShare?: number | undefined;
}

export interface Triggers {
  semantic: number;
  standard: number;
  /** Set when a default was scaled to the window: the rule, for the action log. */
  scaled?: string;
}

export function resolveTriggers(o: ThresholdOptions, window: number): Triggers {
  const given = [o.semanticTokens, o.standardTokens, o.semanticShare, o.standardShare].some((v) => v !== undefined);
  const scale = !given && (DEFAULT_STANDARD >= window || DEFAULT_SEMANTIC >= window) ? window / REFERENCE_WINDOW : 1;
  const pick = (share: number | undefined, tokens: number | undefined, fallback: number): { value: number; scaled: boolean } => {
    if (share !== undefined) return { value: Math.round(share * window), scaled: false };
    if (tokens !== undefined) return { value: tokens, scaled: false };
    return { value: Math.round(fallback * scale), scaled: scale !== 1 };
  };
  const semantic = pick(o.semanticShare, o.semanticTokens, DEFAULT_SEMANTIC);
  const standard = pick(o.standardShare, o.standardTokens, DEFAULT_STANDARD);
  const triggers: Triggers = { semantic: semantic.value, standard: standard.value };
  if (semantic.scaled || standard.scaled) {
    triggers.scaled = `default triggers (50k semantic / 200k standard, written for a 1M window) scaled to the ${window}-token window: trigger × ${window} / 1,000,000 → semantic ${triggers.semantic}, standard ${triggers.standard}`;
  }
  return triggers;
}

/** The trigger lines the reports draw for a strategy that uses tri-modal's triggers. */
export function triggerLines(o: ThresholdOptions, window: number): Array<{ label: string; tokens: number }> {
  const t = resolveTriggers(o, window);
  return [
    { label: 'semantic', tokens: t.semantic },
    { label: 'standard', tokens: t.standard },
  ];
}
