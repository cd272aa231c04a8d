import { describe, expect, it } from 'vitest';
import { classifyOutcome, type HeldFact } from '../../src/probes/outcome.js';

const held = (over: Partial<HeldFact> = {}): HeldFact => ({ verbatim: false, truth: false, older: false, ...over });
const answer = (text: string, correct: boolean, retrieved = false, correctWithRetrieval = correct) => ({
  answer: text,
  correct,
  retrieved,
  correctWithRetrieval,
});

describe('classifyOutcome', () => {
  it.each([
    ['kept: evidence verbatim, whatever the reader said', held({ verbatim: true, truth: true }), answer('Not found in the context.', false), 'kept'],
    ['paraphrased: the value in other words (a summary)', held({ truth: true }), answer('port 8437', true), 'paraphrased'],
    ['recoverable: found only through a retrieval hint', held(), answer('Not found in the context.', false, true, true), 'recoverable'],
    ['stale: an older value held, not the latest', held({ older: true }), answer('3 failed', false), 'stale'],
    ['contradicted: the reader read another value', held(), answer('The port is 9000.', false), 'contradicted'],
    ['lost: nothing held, the reader says so', held(), answer('Not found in the context.', false), 'lost'],
    ['lost: a failed probe call is no contradiction', held(), answer('(probe call failed: overflow: too long)', false), 'lost'],
  ] as const)('%s', (_name, fact, given, expected) => {
    expect(classifyOutcome(fact, given)).toBe(expected);
  });
});
