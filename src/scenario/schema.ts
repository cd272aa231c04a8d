import { z } from 'zod';
import { contextRotSchema } from './context-rot.js';

const positiveInt = z.number().int().positive();

/**
 * A label is a report's row and column name, a header of the simulator's requests and a line of
 * the terminal: one line of printable text (a newline in it broke every one of them).
 */
const label = z
  .string()
  .min(1)
  // The control characters are what the label must not hold.
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001F\u007F-\u009F]+$/, 'a label is one line of printable text: no newline, tab or control character');

const strategyEntry: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    z.string().min(1),
    z.strictObject({
      label: label.optional(),
      strategy: z.string().min(1).optional(),
      options: z.record(z.string(), z.unknown()).optional(),
      pipeline: z.array(strategyEntry).min(1).optional(),
      /** A JS module exporting a `Strategy` (path relative to the scenario file). */
      module: z.string().min(1).optional(),
      /** A policy process speaking docs/process-protocol.md, started in the scenario's folder. */
      command: z.array(z.string().min(1)).min(1).optional(),
      /** For `command`: how long to wait for each answer of the process before the unit fails. */
      timeoutMs: positiveInt.optional(),
    }),
  ]),
);

/** A scenario file (YAML or JSON) as written; `resolveScenario` fills defaults and paths. */
export const scenarioFileSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i, 'use letters, digits, dot, dash, underscore'),
  description: z.string().optional(),
  /**
   * A stress test (docs/scenarios.md): it shows what a strategy does at an edge (an overflow, a
   * quota), on a session no real logs were fitted to, so no recommendation averages it in.
   */
  stress: z.boolean().optional(),
  transcript: z.union([z.string().min(1), z.strictObject({ generate: z.record(z.string(), z.unknown()) })]),
  /**
   * The transcript's format (an importer's name: `claude-code`, `codex`, …) when detection from
   * its content cannot tell; absent: canonical `*.ctx.jsonl`, or detected like `ctxbench import`.
   */
  format: z.string().min(1).optional(),
  lenient: z.boolean().default(false),
  /**
   * Claude Code logs: `include` replays each subagent conversation (sidechain) of the session as a
   * log of its own beside the main one (the scenario then has several logs); `skip` (the default)
   * replays the main agent's context alone.
   */
  sidechains: z.enum(['include', 'skip']).default('skip'),
  /**
   * Probes beside the transcript's own: a side file; `generate` (probes generated from the
   * transcript at load time); or both, `{file, generate: true | {max, seed}}`.
   */
  probes: z
    .union([
      z.string().min(1),
      z.strictObject({
        file: z.string().min(1).optional(),
        generate: z
          .union([z.literal(true), z.strictObject({ max: positiveInt.optional(), seed: z.number().int().min(0).optional(), askAfter: positiveInt.optional() })])
          .optional(),
      }),
    ])
    .optional(),
  provider: z.enum(['gemini', 'openai']).optional(),
  model: z.string().min(1).optional(),
  window: positiveInt.optional(),
  /** How an implicit prompt cache (OpenAI, Gemini) is billed: its expected hit rate (default) or the upper bound (src/cache/families.ts). */
  promptCache: z.enum(['expected', 'upper-bound']).optional(),
  maxOutputTokens: positiveInt.default(8192),
  /**
   * Tokens every replayed request carries that the log does not hold (system prompt, tool
   * schemas): `auto` estimates them from the log's recorded usage (0 without usage), a number
   * fixes them, 0 turns them off.
   */
  hiddenPrefix: z.union([z.literal('auto'), z.number().int().min(0)]).default('auto'),
  quota: z.strictObject({ tpm: positiveInt.optional(), rpm: positiveInt.optional(), rpd: positiveInt.optional() }).default({}),
  retry: z
    .strictObject({
      maxRetries: z.number().int().min(0).optional(),
      honourRetryAfter: z.boolean().optional(),
      baseDelayMs: z.number().min(0).optional(),
      maxDelayMs: z.number().min(0).optional(),
      factor: z.number().min(1).optional(),
    })
    .default({}),
  pacing: z
    .strictObject({
      thinkMs: z.number().min(0).optional(),
      msPerOutputToken: z.number().min(0).optional(),
      baseLatencyMs: z.number().min(0).optional(),
      jitter: z.number().min(0).max(1).optional(),
    })
    .default({}),
  seed: z.number().int().min(0).optional(),
  onCrash: z.enum(['stop', 'continue']).default('stop'),
  /** Mocked mode: faults the simulated model injects at these seeded rates (0..1 per call). */
  faults: z
    .strictObject({
      server500: z.number().min(0).max(1).optional(),
      unavailable503: z.number().min(0).max(1).optional(),
      timeout: z.number().min(0).max(1).optional(),
      malformed: z.number().min(0).max(1).optional(),
    })
    .optional(),
  probesUseQuota: z.boolean().default(false),
  /**
   * How the simulated reader reads: `contextRot` makes evidence in a long context less likely to
   * be retrieved, on a curve calibrated on published long-context results (docs/probes.md,
   * "Context rot"); reported apart from answer recall. Absent or `off`: no such effect.
   */
  reader: z.strictObject({ contextRot: contextRotSchema.optional() }).optional(),
  /** USD per million tokens, overriding the price table (src/pricing/prices.ts) for this scenario's model. */
  prices: z
    .strictObject({
      input: z.number().min(0),
      cachedInput: z.number().min(0).optional(),
      cacheWrite: z.number().min(0).optional(),
      output: z.number().min(0),
    })
    .optional(),
  /** Live runs: also grade every probe answer with the LLM judge (docs/judge-rubric.md). */
  judge: z.boolean().default(false),
  strategies: z.array(strategyEntry).min(1).optional(),
  /**
   * Strategies whose summary rows are identical on this scenario, and why (e.g. a trigger the
   * session never reaches). A bundled real scenario must explain every identical pair here
   * (test/scenarios/real-identical-rows.test.ts); the labels must be among its strategies.
   */
  identicalRows: z
    .array(z.strictObject({ strategies: z.array(z.string().min(1)).min(2), reason: z.string().min(20, 'say why the rows are identical') }))
    .optional(),
});

export type ScenarioFile = z.infer<typeof scenarioFileSchema>;
