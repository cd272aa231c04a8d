import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { READABLE_SCHEMA_VERSIONS, type RunResult } from '../metrics/types.js';
import { parseInput } from '../validate.js';

/**
 * The fields that check and merge read, validated loosely: anything else a result holds is
 * passed through untouched, so that merging keeps every byte of it.
 */
const resultShape = z.looseObject({
  schemaVersion: z.number(),
  tool: z.looseObject({ name: z.literal('ctxbench'), version: z.string() }),
  seed: z.number(),
  mode: z.enum(['mock', 'live']),
  scenarios: z.array(z.looseObject({ name: z.string(), seed: z.number(), steps: z.number() })),
  units: z.array(
    z.looseObject({
      scenario: z.string(),
      strategy: z.string(),
      summary: z.looseObject({ total_tokens: z.number(), crashed: z.boolean() }),
      steps: z.array(z.looseObject({ step: z.number(), status: z.string() })),
    }),
  ),
  shard: z
    .looseObject({
      index: z.number(),
      count: z.number(),
      planned: z.number(),
      units: z.array(z.number()),
      plan: z.array(z.string()).optional(),
      corpora: z
        .array(
          z.looseObject({
            scenario: z.string(),
            units: z.array(z.number().int()),
            logs: z.array(z.looseObject({ transcript: z.string(), sha256: z.string() })),
            taken: z.array(z.number().int()),
            figures: z.literal('taken').optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});

/**
 * Reads a `result.json` for comparing or merging. Everything that makes it unusable is an
 * InputError (exit 2) naming the file and the reason: unreadable, not JSON, another result schema
 * version (the numbers may not mean the same), or not a ctxbench result.
 */
export async function readResultFile(file: string): Promise<RunResult> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new InputError({ file }, `cannot read result: ${error.code ?? error.message}`);
  });
  return parseResultText(text, file);
}

function parseResultText(text: string, file: string): RunResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError({ file }, `not a JSON result: ${(error as Error).message}`);
  }
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && !READABLE_SCHEMA_VERSIONS.includes(version)) {
    throw new InputError(
      { file, field: 'schemaVersion' },
      `was written with result schema ${version}; this ctxbench reads schema ${READABLE_SCHEMA_VERSIONS.join(' and ')}: run it again with this version`,
    );
  }
  parseInput(resultShape, data, { file, what: 'not a ctxbench result' });
  return data as RunResult;
}
