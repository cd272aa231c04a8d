import { describe, expect, it } from 'vitest';
import { isPreparedRetained, isRetained, prepareContext, prepareProbe } from '../../src/probes/retention.js';
import type { Probe, ProbeExpectation } from '../../src/transcript/types.js';

function makeProbe(expected: ProbeExpectation): Probe {
  return { id: 'p', kind: 'recall', question: 'Which port?', expected, evidence: ['m04'], ask: ['end'] };
}

const evidence = 'export const config = {\n  port: 8437,\n  poolSize: 12,\n};';

const cases: { name: string; expected: ProbeExpectation; context: string[]; evidence: string[]; retained: boolean | null }[] = [
  { name: 'exact evidence text kept', expected: { anyOf: ['9999'] }, context: ['first', `Tool: ${evidence}\n(end)`], evidence: [evidence], retained: true },
  {
    name: 'answer only (evidence summarised)',
    expected: { anyOf: ['8437'] },
    context: ['Summary: the server listens on PORT 8437.'],
    evidence: [evidence],
    retained: true,
  },
  {
    name: 'answer normalised (quotes, case, separators)',
    expected: { anyOf: ['src/server/config.ts'] },
    context: ['edited `SRC\\server\\config.ts`'],
    evidence: ['x'.repeat(40)],
    retained: true,
  },
  { name: 'neither', expected: { anyOf: ['8437'] }, context: ['Summary: the config was read.', 'port 8080'], evidence: [evidence], retained: false },
  { name: 'a number inside a longer one is not the answer', expected: { anyOf: ['843'] }, context: ['port 8437'], evidence: [], retained: false },
  { name: 'allOf needs all', expected: { allOf: ['pg-mem', 'CI'] }, context: ['we use pg-mem'], evidence: [], retained: false },
  { name: 'allOf, across messages', expected: { allOf: ['pg-mem', 'CI'] }, context: ['we use pg-mem', 'because of CI'], evidence: [], retained: true },
  { name: 'regex', expected: { regex: 'pool\\.test\\.ts' }, context: ['FAILED tests/db/POOL.test.ts'], evidence: [], retained: true },
  {
    name: 'evidence split across two context texts is not kept',
    expected: { anyOf: ['zzz'] },
    context: ['export const config = {\n  port: 8437,', '\n  poolSize: 12,\n};'],
    evidence: [evidence],
    retained: false,
  },
  { name: 'a too short evidence text proves nothing', expected: { anyOf: ['8437'] }, context: ['Done.'], evidence: ['Done.'], retained: false },
  {
    name: 'periodic evidence kept',
    expected: { anyOf: ['zzz'] },
    context: ['x', `pre ${'lorem ipsum '.repeat(10)}post`],
    evidence: ['lorem ipsum '.repeat(10)],
    retained: true,
  },
  {
    name: 'evidence whose start also begins another text',
    expected: { anyOf: ['zzz'] },
    context: [`${evidence.slice(0, 50)} (cut)`, `kept: ${evidence}`],
    evidence: [evidence],
    retained: true,
  },
  { name: 'notInSession is not measured', expected: { notInSession: true }, context: [evidence], evidence: [evidence], retained: null },
  { name: 'nothing to look for', expected: { regex: '(' }, context: ['('], evidence: [], retained: null },
];

describe('isRetained', () => {
  it.each(cases)('$name', ({ expected, context, evidence: texts, retained }) => {
    expect(isRetained(makeProbe(expected), context, texts)).toBe(retained);
  });

  it('gives the same verdicts on a prepared context', () => {
    for (const c of cases) {
      const prepared = prepareContext(c.context);
      expect(isRetained(makeProbe(c.expected), prepared, c.evidence)).toBe(c.retained);
      expect(isPreparedRetained(prepareProbe(makeProbe(c.expected), c.evidence), prepared)).toBe(c.retained);
    }
  });

  it('re-prepares a probe when its evidence texts change', () => {
    const probe = makeProbe({ anyOf: ['zzz'] });
    const context = prepareContext([evidence]);
    expect(isRetained(probe, context, ['something else entirely'])).toBe(false);
    expect(isRetained(probe, context, [evidence])).toBe(true);
  });

  it('checks 50 probes against 500 steps of 100 messages (speed: npm run bench)', () => {
    const messages = Array.from(
      { length: 600 },
      (_, i) => `message ${i}: ran \`npm test\` in packages/pkg-${i}, port ${10000 + i}, ${'lorem ipsum '.repeat(40)}`,
    );
    const probes = Array.from({ length: 50 }, (_, i) => makeProbe({ anyOf: [`port ${10000 + i * 10}`] }));
    const evidenceTexts = probes.map((_, i) => [messages[i * 10] ?? '']);
    let kept = 0;
    for (let step = 0; step < 500; step++) {
      const context = prepareContext(messages.slice(step, step + 100));
      probes.forEach((probe, i) => {
        if (isRetained(probe, context, evidenceTexts[i] ?? []) === true) kept++;
      });
    }
    expect(kept).toBeGreaterThan(0);
  });
});
