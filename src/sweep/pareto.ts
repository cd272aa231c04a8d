/** What a sweep point scored, over every scenario of the sweep. */
export interface PointScore {
  /** Total tokens (↓). */
  totalTokens: number;
  /** Answer recall, correct answers / answers (↑); null when nothing was asked. */
  answerRecall: number | null;
  /** Units that crashed (↓). */
  crashes: number;
  /** Virtual time spent waiting for quota, ms (↓). */
  waitMs: number;
  /**
   * USD net of prompt cache (↓): fewer tokens can cost more when they break the cached prefix.
   * Null (or absent, in sweeps written before it) when the model has no price: not an objective then.
   */
  costUsd?: number | null;
}

/** Constraints of the recommendation; absent ones do not constrain. */
export interface Constraints {
  minRecall?: number;
  maxCrashes?: number;
  maxTokens?: number;
}

export interface Recommendation {
  /** Position of the recommended point in the list given; null when none satisfies the constraints. */
  position: number | null;
  /** Why this point, or why none. */
  reason: string;
}

/** Recall for comparisons: not measured is worse than any measured value. */
function recallOf(score: PointScore): number {
  return score.answerRecall ?? -1;
}

/** Whether `a` is at least as good as `b` on every objective and better on one. */
export function dominates(a: PointScore, b: PointScore): boolean {
  const [costA, costB] = a.costUsd != null && b.costUsd != null ? [a.costUsd, b.costUsd] : [0, 0];
  const noWorse = a.totalTokens <= b.totalTokens && recallOf(a) >= recallOf(b) && a.crashes <= b.crashes && a.waitMs <= b.waitMs && costA <= costB;
  const better = a.totalTokens < b.totalTokens || recallOf(a) > recallOf(b) || a.crashes < b.crashes || a.waitMs < b.waitMs || costA < costB;
  return noWorse && better;
}

/**
 * Positions of the Pareto front over (total tokens ↓, answer recall ↑, crashes ↓, waiting ↓, cost ↓ when priced):
 * the points no other point dominates, in the order given. Points with equal scores are all
 * kept (neither dominates the other).
 */
export function paretoFront(scores: readonly PointScore[]): number[] {
  const front: number[] = [];
  scores.forEach((score, i) => {
    if (!scores.some((other, j) => j !== i && dominates(other, score))) front.push(i);
  });
  return front;
}

/** Whether a score satisfies the constraints; the reasons it does not, otherwise. */
function violations(score: PointScore, constraints: Constraints): string[] {
  const out: string[] = [];
  if (constraints.minRecall !== undefined && (score.answerRecall === null || score.answerRecall < constraints.minRecall)) out.push('recall');
  if (constraints.maxCrashes !== undefined && score.crashes > constraints.maxCrashes) out.push('crashes');
  if (constraints.maxTokens !== undefined && score.totalTokens > constraints.maxTokens) out.push('tokens');
  return out;
}

/**
 * The cheapest point (fewest total tokens) that satisfies the constraints; ties go to higher
 * recall, then fewer crashes, less waiting, and the earlier point. Such a point is always on the
 * front: a point dominating it would satisfy the constraints too and win the order. When no point
 * qualifies, the reason says how many points fail each constraint and the best value reached.
 */
export function recommend(scores: readonly PointScore[], constraints: Constraints): Recommendation {
  const feasible = scores.map((score, i) => ({ score, i })).filter(({ score }) => violations(score, constraints).length === 0);
  feasible.sort(
    (a, b) =>
      a.score.totalTokens - b.score.totalTokens ||
      recallOf(b.score) - recallOf(a.score) ||
      a.score.crashes - b.score.crashes ||
      a.score.waitMs - b.score.waitMs ||
      a.i - b.i,
  );
  const best = feasible[0];
  const wording = describeConstraints(constraints);
  if (best !== undefined) return { position: best.i, reason: `the cheapest of ${feasible.length} of ${scores.length} points that satisfy ${wording}` };
  return { position: null, reason: explainNone(scores, constraints, wording) };
}

function describeConstraints(constraints: Constraints): string {
  const parts: string[] = [];
  if (constraints.minRecall !== undefined) parts.push(`answer recall ≥ ${constraints.minRecall}`);
  if (constraints.maxCrashes !== undefined) parts.push(`crashes ≤ ${constraints.maxCrashes}`);
  if (constraints.maxTokens !== undefined) parts.push(`total tokens ≤ ${constraints.maxTokens}`);
  return parts.length === 0 ? 'no constraint' : parts.join(', ');
}

function explainNone(scores: readonly PointScore[], constraints: Constraints, wording: string): string {
  if (scores.length === 0) return 'no point was run';
  const failing = (name: string): number => scores.filter((s) => violations(s, constraints).includes(name)).length;
  const parts: string[] = [];
  if (constraints.minRecall !== undefined) {
    const best = Math.max(...scores.map(recallOf));
    parts.push(`${failing('recall')} have answer recall below ${constraints.minRecall} (best ${best < 0 ? 'not measured' : best.toFixed(3)})`);
  }
  if (constraints.maxCrashes !== undefined)
    parts.push(`${failing('crashes')} crash more than ${constraints.maxCrashes} time(s) (fewest ${Math.min(...scores.map((s) => s.crashes))})`);
  if (constraints.maxTokens !== undefined)
    parts.push(`${failing('tokens')} use more than ${constraints.maxTokens} tokens (fewest ${Math.min(...scores.map((s) => s.totalTokens))})`);
  return `none of ${scores.length} points satisfies ${wording}: ${parts.join('; ')}`;
}
