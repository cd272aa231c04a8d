import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../src/random.js';
import { numberLines } from '../../../src/transcript/synthetic/code.js';
import { placeFactLine } from '../../../src/transcript/synthetic/placement.js';
import { generateSession } from '../../../src/transcript/synthetic/generate.js';

const MARKER = '⟦F0⟧';
const listing = Array.from({ length: 40 }, (_, i) => (i === 2 ? `port: ${MARKER}  # api listener` : `key_${i}: value ${i}`));

/** Relative line of the marker in an output, in [0, 1]. */
function lineShare(output: string, marker: string): number {
  const lines = output.split('\n');
  return lines.findIndex((line) => line.includes(marker)) / (lines.length - 1);
}

describe('placeFactLine', () => {
  it('keeps the rendered layout for head, byte for byte', () => {
    const output = listing.join('\n');
    expect(placeFactLine(output, MARKER, 'head', createRandom(1))).toBe(output);
  });

  it('spreads uniform positions over the whole output, seeded', () => {
    const shares = Array.from({ length: 200 }, (_, seed) => lineShare(placeFactLine(listing.join('\n'), MARKER, 'uniform', createRandom(seed)), MARKER));
    const thirds = [0, 1, 2].map((t) => shares.filter((s) => s >= t / 3 && s < (t + 1) / 3 + (t === 2 ? 1 : 0)).length);
    for (const third of thirds) expect(third).toBeGreaterThan(45);
    expect(placeFactLine(listing.join('\n'), MARKER, 'uniform', createRandom(9))).toBe(placeFactLine(listing.join('\n'), MARKER, 'uniform', createRandom(9)));
  });

  it('puts tail positions in the last tenth of the lines', () => {
    for (let seed = 0; seed < 30; seed++)
      expect(lineShare(placeFactLine(listing.join('\n'), MARKER, 'tail', createRandom(seed)), MARKER)).toBeGreaterThanOrEqual(0.87);
  });

  it('keeps cat -n numbering consecutive, and every other line in order', () => {
    const placed = placeFactLine(numberLines(listing, 7), MARKER, 'tail', createRandom(3)).split('\n');
    expect(placed.map((line) => Number(line.split('\t')[0]))).toEqual(listing.map((_, i) => 7 + i));
    expect(placed.map((line) => line.split('\t')[1]).filter((line) => !line?.includes(MARKER))).toEqual(listing.filter((line) => !line.includes(MARKER)));
  });

  it('leaves a marker on several lines, or a short output, as rendered', () => {
    const twice = [...listing, `FAILED ${MARKER}`].join('\n');
    expect(placeFactLine(twice, MARKER, 'uniform', createRandom(1))).toBe(twice);
    const short = listing.slice(0, 5).join('\n');
    expect(placeFactLine(short, MARKER, 'uniform', createRandom(1))).toBe(short);
  });
});

describe('factPosition in generated sessions', () => {
  const options = { steps: 64, seed: 7, dialect: 'gemini', toolOutputTokens: 900, facts: 8 } as const;

  /** Where each single-line tool fact's answer sits in its tool output, as a share of its characters. */
  function answerShares(factPosition: 'head' | 'uniform' | 'tail'): number[] {
    const session = generateSession({ ...options, factPosition });
    const messages = session.events.flatMap((e) => (e.type === 'message' ? [e] : []));
    return session.events.flatMap((e) => {
      if (e.type !== 'probe') return [];
      const answer = e.probe.expected.anyOf?.[0] ?? '';
      const tool = messages.find((m) => m.role === 'tool' && e.probe.evidence.includes(m.id) && m.text.split(answer).length === 2 && m.text.length > 2000);
      return tool === undefined ? [] : [Math.round((100 * tool.text.indexOf(answer)) / tool.text.length) / 100];
    });
  }

  it('plants facts near the head with head, anywhere with uniform, at the end with tail', () => {
    expect(answerShares('head')).toEqual([0.04, 0.03, 0.04]);
    expect(answerShares('uniform')).toEqual([0.38, 0.25, 0.68]);
    for (const share of answerShares('tail')) expect(share).toBeGreaterThan(0.85);
  });

  it('keeps the session id of head sessions unchanged by the option', () => {
    expect(generateSession({ ...options, factPosition: 'head' }).header.id).toBe(generateSession({ ...options, factPosition: 'head' }).header.id);
    expect(generateSession({ ...options, factPosition: 'head' }).header.id).not.toBe(generateSession(options).header.id);
  });
});
