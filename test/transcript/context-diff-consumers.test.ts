import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTranscript } from '../../src/scenario/load-transcript.js';
import { tokenizerForModel } from '../../src/tokens/tokenizer.js';
import { createContextCount } from '../../src/tokens/context-count.js';
import { createHiddenCount, hiddenTokensOf } from '../../src/tokens/hidden-tokens.js';
import { resolveHiddenPrefix } from '../../src/replay/hidden-prefix.js';
import { createFollowUpTracker } from '../../src/replay/follow-up.js';
import { createStepParts, messagePart } from '../../src/cache/request-parts.js';
import { MessageRetention, prepareMessages, retainedInMessages } from '../../src/probes/context-text.js';
import { prepareProbe } from '../../src/probes/retention.js';
import { FactIndex } from '../../src/probes/needed/fact-index.js';
import { NeededContext } from '../../src/probes/needed/held.js';
import { diffContexts, wholeContext } from '../../src/transcript/context-diff.js';
import type { ContextMessage, MessageEvent, Probe } from '../../src/transcript/types.js';
import { editedLists } from '../helpers/list-edits.js';

// Each consumer of the step's diff, fed diffs of several changes each (random edits of real
// messages, a fixed seed), against the same value computed from the whole list.
const log = resolve('fixtures/real/claude-code/vibecoding-session.jsonl');

describe('every consumer of the step diff follows diffs of several changes', () => {
  it('token count, hidden tokens, cache parts, retention, needed facts and the follow-up check', async () => {
    const transcript = await loadTranscript({ kind: 'file', path: log, lenient: false }, 0);
    const tokenizer = tokenizerForModel('gpt-4o');
    const messages = transcript.events.filter((e): e is MessageEvent => e.type === 'message');
    // Messages a strategy would write too: summaries in place of some (a synthetic message is counted apart).
    const pool: ContextMessage[] = [
      ...messages.slice(0, 60),
      ...messages.slice(0, 8).map((m, i) => ({ ...m, id: `s${i}`, text: `Summary ${i}: ${m.text.slice(0, 200)}`, synthetic: 'summary' })),
    ];
    const hiddenPrefix = resolveHiddenPrefix('auto', transcript, tokenizer, 'openai');
    const dialect = transcript.header.dialect;
    const lines = messages.flatMap((m) => m.text.split('\n').filter((line) => line.trim().length >= 30));
    const probe = (expected: Probe['expected']): Probe => ({ id: 'p', kind: 'recall', question: 'q?', expected, evidence: [], ask: ['end'] });
    const probes = lines
      .filter((_, i) => i % Math.max(1, Math.floor(lines.length / 30)) === 0)
      .flatMap((line) => [
        prepareProbe(probe({ anyOf: ['nothing like it'] }), [line]),
        prepareProbe(probe({ anyOf: [line.trim().split(/\s+/)[0] ?? ''] }), []),
      ]);
    const facts = [...new Set(lines.map((line) => line.trim().slice(0, 12)))].slice(0, 80);
    const index = new FactIndex(facts);

    const count = createContextCount(tokenizer, 'openai');
    const hidden = createHiddenCount(hiddenPrefix, tokenizer, 'openai', dialect);
    const parts = createStepParts(tokenizer, 'openai');
    const retention = new MessageRetention(probes);
    const needed = new NeededContext(index);
    const tracker = createFollowUpTracker();
    for (const m of messages) tracker.observe(m);
    const completion = messages.find((m) => m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0) as MessageEvent;
    const all = () => true;
    let held: readonly ContextMessage[] = [];
    let several = 0;
    for (const [round, list] of [...editedLists(pool, 300, 3, { severalAtOnce: true })].entries()) {
      const diff = diffContexts(held, list);
      if (diff.changes.length > 1) several += 1;
      const at = `round ${round}`;
      expect(count.update(diff), at).toBe(list.reduce((n, m) => n + tokenizer.countMessage(m, 'openai'), tokenizer.countMessages([], 'openai')));
      expect(hidden.update(diff), at).toEqual(hiddenTokensOf(list, hiddenPrefix, tokenizer, 'openai', dialect));
      expect(parts.update(diff), at).toEqual(list.map((m) => messagePart(m, tokenizer, 'openai')));
      const context = list as MessageEvent[];
      expect(retention.retained(diff, prepareMessages(context), all), at).toEqual(retainedInMessages(probes, context, prepareMessages(context), all));
      needed.update(diff);
      const fresh = new NeededContext(index);
      fresh.update(wholeContext(list));
      expect(
        facts.map((_, f) => needed.holds(f)),
        at,
      ).toEqual(facts.map((_, f) => fresh.holds(f)));
      const alone = createFollowUpTracker();
      for (const m of messages) alone.observe(m);
      expect(tracker.check(diff, completion, round), at).toEqual(alone.check(wholeContext(list), completion, round));
      held = diff.after;
    }
    expect(several).toBeGreaterThan(50);
  });
});
