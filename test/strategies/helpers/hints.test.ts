import { describe, expect, it } from 'vitest';
import { findRetrievalHints, retrievalHint } from '../../../src/strategies/helpers/hints.js';

describe('findRetrievalHints', () => {
  const text = `Output cut. ${retrievalHint('s/k1')} and later ${retrievalHint('ref:abc')}; [archived: broken`;

  it('finds every hint, in order, and none in a text without one', () => {
    expect(findRetrievalHints(text)).toEqual(['s/k1', 'ref:abc']);
    expect(findRetrievalHints('[archive] nothing [archived: x retrievable]')).toEqual([]);
    expect(findRetrievalHints('')).toEqual([]);
  });

  it('hands each caller its own array: adding to one does not change the next answer', () => {
    const first = findRetrievalHints(text);
    first.push('added');
    expect(findRetrievalHints(text)).toEqual(['s/k1', 'ref:abc']);
    const none = findRetrievalHints('plain');
    none.push('added');
    expect(findRetrievalHints('plain')).toEqual([]);
  });
});
