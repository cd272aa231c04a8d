import { describe, expect, it } from 'vitest';
import { findBestPassage, indexPassages, isFindable } from '../../src/probes/findable.js';
import { rankPassages, splitPassages } from '../../src/providers/simulated/reader.js';
import type { MessageEvent } from '../../src/transcript/types.js';

const messages: MessageEvent[] = [
  { type: 'message', id: 'm0', role: 'user', text: 'List the scripts, then tell me what is there.' },
  { type: 'message', id: 'm1', role: 'assistant', text: 'Listing.', toolCalls: [{ id: 'c', name: 'Glob', args: { pattern: '**/*.py' } }] },
  { type: 'message', id: 'm2', role: 'tool', text: '/repo/scripts/release.py\n/repo/scripts/check-coverage.py\n/repo/tests/test_math.py', toolCallId: 'c' },
  { type: 'message', id: 'm3', role: 'assistant', text: 'Three Python files: the release script, a coverage check and one test module.' },
];

describe('findable questions', () => {
  const index = indexPassages(messages);

  it('ranks passages as the simulated reader does', () => {
    for (const question of ['Which file did `Glob` mention? (context: release)', 'Which release script is there?', 'Which test module is there?', 'coverage check script']) {
      const reader = rankPassages(question, splitPassages(messages))[0];
      const best = findBestPassage(index, question);
      expect(best === undefined ? undefined : index.passages[best]?.raw, question).toBe(reader?.coverage !== undefined && reader.coverage >= 0.4 ? reader.text : undefined);
    }
  });

  it('accepts a question whose best line holds the answer', () => {
    expect(isFindable(index, 'Which release script is there?', '/repo/scripts/release.py', new Set([2]))).toBe(true);
  });

  it('rejects an ambiguous question: its best line holds another answer of the listing', () => {
    expect(isFindable(index, 'Which release script is there?', '/repo/scripts/check-coverage.py', new Set([2]))).toBe(false);
  });

  it('rejects a question that leads to a message that is not evidence', () => {
    const question = 'Which coverage check did the assistant count among the Python files?';
    expect(findBestPassage(index, question)).toBe(index.byMessage[3]?.[0]);
    expect(isFindable(index, question, 'coverage check', new Set([2]))).toBe(false);
    expect(isFindable(index, question, 'coverage check', new Set([3]))).toBe(true);
  });

  it('finds nothing for words the session never uses', () => {
    expect(findBestPassage(index, 'Which Kubernetes namespace?')).toBeUndefined();
  });
});
