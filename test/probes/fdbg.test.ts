import { it } from 'vitest';
import { findBestPassage, indexPassages } from '/work/main/src/probes/findable.js';
import { rankPassages, splitPassages } from '/work/main/src/providers/simulated/reader.js';
import { extractQuestionTerms } from '/work/main/src/providers/simulated/terms.js';
const messages = [
  { type: 'message', id: 'm0', role: 'user', text: 'List the scripts, then tell me what is there.' },
  { type: 'message', id: 'm1', role: 'assistant', text: 'Listing.', toolCalls: [{ id: 'c', name: 'Glob', args: { pattern: '**/*.py' } }] },
  { type: 'message', id: 'm2', role: 'tool', text: '/repo/scripts/release.py\n/repo/scripts/check-coverage.py\n/repo/tests/test_math.py', toolCallId: 'c' },
  { type: 'message', id: 'm3', role: 'assistant', text: 'Three Python files: the release script, a coverage check and one test module.' },
] as any;
it('x', () => {
  const index = indexPassages(messages);
  for (const q of ['Which file did `Glob` mention? (context: release)', 'How many Python modules did the assistant count?']) {
    console.log(q, extractQuestionTerms(q), findBestPassage(index, q), rankPassages(q, splitPassages(messages)).slice(0,3).map(p => [p.text, p.score.toFixed(2), p.coverage.toFixed(2)]));
  }
});
