import { z } from 'zod';

/** The zod schema of a probe (DESIGN.md §6), shared by inline probe events and side files. */
const probeKindSchema = z.enum(['recall', 'artifact', 'continuation', 'decision']);

const probeExpectationSchema = z
  .strictObject({
    anyOf: z.array(z.string().min(1)).min(1).optional(),
    allOf: z.array(z.string().min(1)).min(1).optional(),
    regex: z.string().min(1).optional(),
    notInSession: z.boolean().optional(),
  })
  .refine((e) => e.anyOf !== undefined || e.allOf !== undefined || e.regex !== undefined || e.notInSession === true, {
    message: 'expected needs anyOf, allOf, regex or notInSession',
  });

const probeAskSchema = z.union([z.literal('end'), z.literal('after-compaction'), z.strictObject({ step: z.number().int().min(0) })]);

export const probeSchema = z.strictObject({
  id: z.string().min(1),
  kind: probeKindSchema,
  question: z.string().min(1),
  expected: probeExpectationSchema,
  evidence: z.array(z.string()).default([]),
  ask: z.array(probeAskSchema).min(1).default(['end']),
  superseded: z.array(z.string().min(1)).min(1).optional(),
  origin: z.string().optional(),
});
