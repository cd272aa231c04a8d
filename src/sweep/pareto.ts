/** What a sweep point scored, over every scenario of the sweep. */
export interface PointScore {
  /** Total tokens (↓). */
  totalTokens: number;
  /** Answer recall, correct answers / answers pooled over the scenarios (↑); null when nothing was asked. */
  answerRecall: number | null;
  /** Units (or logs, over several logs) that crashed (↓). */
  crashes: number;
  /** Virtual time spent waiting for quota, ms (↓). */
  waitMs: number;
  /** USD net of prompt cache (↓); null when the model has no price. */
  costUsd: number | null;
}

/** A point as the front sees it: what it spends on the front's axis, and its recall. */
export interface FrontScore {
  spend: number;
  recall: number | null;
}

/** Recall for comparisons: not measured is worse than any measured value. */
function recallOf(score: FrontScore): number {
  return score.recall ?? -1;
}

/** Whether `a` spends no more and recalls no less than `b`, and is better on one. */
export function dominates(a: FrontScore, b: FrontScore): boolean {
  return a.spend <= b.spend && recallOf(a) >= recallOf(b) && (a.spend < b.spend || recallOf(a) > recallOf(b));
}

/**
 * Positions of the Pareto front over (spend ↓, answer recall ↑) among the eligible points (the
 * others are `undefined`: a crashing point spends little because it stopped): those no eligible
 * point dominates, in the order given. Equal scores are all kept; the sweep collapses points with
 * identical results before it asks.
 */
export function paretoFront(scores: readonly (FrontScore | undefined)[]): number[] {
  const front: number[] = [];
  scores.forEach((score, i) => {
    if (score !== undefined && !scores.some((other, j) => j !== i && other !== undefined && dominates(other, score))) front.push(i);
  });
  return front;
}
