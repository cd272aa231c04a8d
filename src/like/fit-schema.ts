import { z } from 'zod';
import { LEVELS } from './draw.js';
import { SOURCE_ROLES, type LikeFit } from './fit-types.js';

/**
 * The shape of a `fit.json` that `generate --fit` reads back (fit-types.ts says what each field
 * is): a distribution is empty or has one quantile per level, a share lies in 0..1.
 */
const quantiles = z.array(z.number().finite()).refine((q) => q.length === 0 || q.length === LEVELS.length, {
  message: `a distribution has ${LEVELS.length} quantiles (0, 5, …, 95, 99 and 100 %) or none`,
});
const share = z.number().min(0).max(1);
const twoLevels = z.strictObject({ perLog: quantiles, relative: quantiles, largest: z.number().min(0) });
const shares = z.record(z.string(), share);

export const likeFitSchema = z.strictObject({
  about: z.string(),
  logs: z.number().int().min(1),
  formats: shares,
  dialect: z.enum(['gemini', 'openai', 'anthropic']),
  model: z.string().optional(),
  toolsAsText: share,
  steps: quantiles.refine((q) => q.length > 0, { message: 'the fit holds no step' }),
  perLog: z
    .array(
      z.strictObject({
        steps: z.number().int().min(0),
        hiddenTokens: z.number().min(0).optional(),
        requestSteps: z.number().min(0),
        textTokens: z.number().min(0),
        toolTokens: z.number().min(0),
        unloggedTokens: z.number().min(0),
        unloggedGrowth: z.array(z.number().min(0)),
      }),
    )
    .min(1, { message: 'the fit holds no log' }),
  hiddenTokens: quantiles,
  systemTokens: quantiles,
  task: z.strictObject({
    steps: twoLevels,
    firstTokens: quantiles,
    userTokens: quantiles,
    perStep: z.number().min(0),
    source: shares,
    none: share,
    lead: quantiles,
    spans: quantiles,
    gaps: quantiles,
    tail: quantiles,
  }),
  assistant: z.strictObject({
    textTokens: twoLevels,
    thinkingTokens: quantiles,
    reasoningTokens: quantiles,
    callTokens: quantiles,
    calls: shares,
    tools: shares,
  }),
  toolOutput: z.strictObject({ tokens: twoLevels, shapes: shares, phases: z.array(z.number().min(0)), unloggedTokens: twoLevels }),
  needed: z.strictObject({
    usesPerStep: z.number().min(0),
    distance: quantiles,
    sourceRole: shares,
    kind: shares,
    inCall: share,
    position: quantiles,
    earlierCopy: z.strictObject(Object.fromEntries(SOURCE_ROLES.map((role) => [role, shares])) as Record<(typeof SOURCE_ROLES)[number], typeof shares>),
  }),
  compaction: z.strictObject({ perStep: z.number().min(0), summaryTokens: quantiles }),
}) satisfies z.ZodType<LikeFit>;
