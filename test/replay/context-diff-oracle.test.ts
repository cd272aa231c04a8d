import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTranscript } from '../../src/scenario/load-transcript.js';
import { scenarioFileSchema } from '../../src/scenario/schema.js';
import { resolveScenario } from '../../src/scenario/resolve.js';
import { tokenizerForModel } from '../../src/tokens/tokenizer.js';
import { createContextCount } from '../../src/tokens/context-count.js';
import { createHiddenCount, hiddenTokensOf } from '../../src/tokens/hidden-tokens.js';
import { resolveHiddenPrefix } from '../../src/replay/hidden-prefix.js';
import { createSimulator } from '../../src/simulator/transport.js';
import { createProvider } from '../../src/providers/index.js';
import { runUnit } from '../../src/replay/run-unit.js';
import { createFollowUpTracker } from '../../src/replay/follow-up.js';
import { createStepParts, messagePart } from '../../src/cache/request-parts.js';
import { MessageRetention, prepareMessages, retainedInMessages } from '../../src/probes/context-text.js';
import { prepareProbe } from '../../src/probes/retention.js';
import { addedCount, removedCount, wholeContext, type ContextDiff } from '../../src/transcript/context-diff.js';
import type { MessageEvent, Probe, Transcript } from '../../src/transcript/types.js';
import type { Tokenizer } from '../../src/tokens/types.js';

// A real mini-swe-agent trajectory: tiered truncation cuts its old observations (and the agent then
// fetches some back), codex-rebuild rebuilds the history in a small window. A real Claude Code
// session: what the log left out of some messages rides with them (hidden tokens by message).
const sweLog = 'fixtures/real/mini-swe-agent/django__django-15957.traj.json';
const claudeLog = 'fixtures/real/claude-code/vibecoding-session.jsonl';

/** The diffs the step loop handed its observers, one per step, replaying the log through `strategy` in a window it must act in. */
async function stepDiffs(file: string, strategy: string, window: number): Promise<{ diffs: ContextDiff[]; transcript: Transcript; tokenizer: Tokenizer }> {
  const log = resolve(file);
  const transcript = await loadTranscript({ kind: 'file', path: log, lenient: false }, 0);
  const data = scenarioFileSchema.parse({ name: 'real', transcript: log, provider: 'openai', window, strategies: [strategy] });
  const scenario = resolveScenario({ file: log, data }, transcript, {});
  const tokenizer = tokenizerForModel(scenario.model);
  const simulator = createSimulator({ tokenizer, seed: scenario.seed });
  const diffs: ContextDiff[] = [];
  try {
    const provider = createProvider({ name: scenario.provider, mode: 'mock', model: scenario.model, simulator });
    const spec = scenario.strategies[0];
    if (spec === undefined) throw new Error('no strategy');
    await runUnit({ scenario, transcript, spec, provider, tokenizer, observer: { onStep: (_record, sent) => void diffs.push(sent) } });
  } finally {
    simulator.uninstall();
  }
  return { diffs, transcript, tokenizer };
}

/** `diff.before` with the diff's changes made: should be `diff.after`. */
function applied(diff: ContextDiff): MessageEvent[] {
  const out: MessageEvent[] = [];
  let at = 0;
  for (const { from, removed, to, added } of diff.changes) {
    out.push(...diff.before.slice(at, from), ...diff.after.slice(to, to + added));
    at = from + removed;
  }
  return [...out, ...diff.before.slice(at)];
}

/** Probes whose evidence is a line of the log's own messages, or a word of one. */
function probesOf(transcript: Transcript) {
  const probe = (expected: Probe['expected']): Probe => ({ id: 'p', kind: 'recall', question: 'q?', expected, evidence: [], ask: ['end'] });
  const lines = transcript.events.flatMap((e) => (e.type === 'message' ? e.text.split('\n').filter((line) => line.trim().length >= 30) : []));
  const picked = lines.filter((_, i) => i % Math.max(1, Math.floor(lines.length / 40)) === 0);
  return picked.flatMap((line) => [
    prepareProbe(probe({ anyOf: ['nothing like it'] }), [line]),
    prepareProbe(probe({ anyOf: [line.trim().split(/\s+/)[0] ?? ''] }), []),
  ]);
}

describe.each([
  { log: sweLog, strategy: 'tiered-truncation', window: 1_048_576 },
  { log: sweLog, strategy: 'codex-rebuild', window: 20_000 },
  { log: claudeLog, strategy: 'tiered-truncation', window: 200_000 },
  { log: claudeLog, strategy: 'codex-rebuild', window: 40_000 },
  // Masks an old observation and appends the step's messages: diffs of two changes.
  { log: sweLog, strategy: 'observation-masking', window: 1_048_576 },
  { log: claudeLog, strategy: 'clear-tool-results', window: 40_000 },
])('the step diff on $log through $strategy: each consumer fed the diffs gives what it gives from scratch', ({ log, strategy, window }) => {
  it('token count, hidden tokens, cache parts, retention and the follow-up check', async () => {
    const { diffs, transcript, tokenizer } = await stepDiffs(log, strategy, window);
    // The strategy rewrote: some step replaced or removed messages it had sent, not only appended.
    expect(diffs.some((d) => removedCount(d) > 0)).toBe(true);
    expect(diffs.every((d) => applied(d).every((m, i) => m === d.after[i]) && applied(d).length === d.after.length)).toBe(true);
    if (strategy === 'observation-masking' || strategy === 'clear-tool-results') expect(diffs.some((d) => d.changes.length > 1)).toBe(true);

    const count = createContextCount(tokenizer, 'openai');
    const hiddenPrefix = resolveHiddenPrefix('auto', transcript, tokenizer, 'openai');
    const hidden = createHiddenCount(hiddenPrefix, tokenizer, 'openai', transcript.header.dialect);
    const parts = createStepParts(tokenizer, 'openai');
    const probes = probesOf(transcript);
    const retention = new MessageRetention(probes);
    const tracker = createFollowUpTracker();
    const completions = transcript.events.filter((e): e is MessageEvent => e.type === 'message' && e.role === 'assistant');
    let observed = 0;
    let fetches = 0;
    let carrying = 0;
    const messages = transcript.events.filter((e): e is MessageEvent => e.type === 'message');
    for (const [step, diff] of diffs.entries()) {
      const context = diff.after;
      expect(count.update(diff), `step ${step}`).toBe(context.reduce((n, m) => n + tokenizer.countMessage(m, 'openai'), tokenizer.countMessages([], 'openai')));
      const hiddenNow = hiddenTokensOf(context, hiddenPrefix, tokenizer, 'openai', transcript.header.dialect);
      expect(hidden.update(diff), `step ${step}`).toEqual(hiddenNow);
      if (hiddenNow.withMessages !== undefined) carrying += 1;
      expect(parts.update(diff), `step ${step}`).toEqual(context.map((m) => messagePart(m, tokenizer, 'openai')));
      const all = () => true;
      expect(retention.retained(diff, prepareMessages(context), all), `step ${step}`).toEqual(
        retainedInMessages(probes, context, prepareMessages(context), all),
      );
      // The follow-up check runs before the step's completion is observed, after every message before it.
      const completion = completions[step] as MessageEvent;
      while (messages[observed] !== completion) tracker.observe(messages[observed++] as MessageEvent);
      const fresh = createFollowUpTracker();
      for (const m of messages.slice(0, observed)) fresh.observe(m);
      const fetch = fresh.check(wholeContext(context), completion, step);
      if (fetch !== undefined) fetches += 1;
      expect(tracker.check(diff, completion, step), `step ${step}`).toEqual(fetch);
    }
    // Some steps fetched back what the strategy cut: the follow-up check had something to find. On
    // the Claude Code session, messages carried hidden tokens.
    if (log === sweLog) expect(fetches).toBeGreaterThan(0);
    else expect(carrying).toBeGreaterThan(0);
    // The diffs carried most of the work: far fewer messages added than sent.
    const added = diffs.reduce((n, d) => n + addedCount(d), 0);
    expect(added).toBeLessThan(diffs.reduce((n, d) => n + d.after.length, 0) / 3);
  });
});
