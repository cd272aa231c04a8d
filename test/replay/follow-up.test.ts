import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSuite } from '../../src/run/run-suite.js';
import { createFollowUpTracker } from '../../src/replay/follow-up.js';
import { createArchive } from '../../src/replay/archive.js';
import type { ContextMessage, MessageEvent } from '../../src/transcript/types.js';
import { diffContexts, wholeContext, type ContextDiff } from '../../src/transcript/context-diff.js';
import { writeFiles } from '../helpers/temp.js';
import { createRandom } from '../../src/random.js';

const msg = (id: string, role: MessageEvent['role'], text: string, extra: Partial<MessageEvent> = {}): MessageEvent => ({
  type: 'message',
  id,
  role,
  text,
  ...extra,
});

/** A 60-line source file as `cat -n` prints it; line 41 is the one the agent later edits (outside a head / middle / tail preview). */
const fileLines = Array.from({ length: 60 }, (_, i) =>
  i === 40 ? 'const retryBudget = computeRetryBudget(config.limits);' : `export const settingNumber${i} = readSetting('setting-${i}');`,
);
const numbered = fileLines.map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join('\n');

const read = msg('a1', 'assistant', 'Reading the config module.', { toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'src/config.ts' } }] });
const result = msg('t1', 'tool', numbered, { toolCallId: 'c1', toolName: 'read_file' });
const edit = msg('a2', 'assistant', 'Changing the retry budget.', {
  toolCalls: [
    {
      id: 'c2',
      name: 'edit_file',
      args: { path: 'src/config.ts', old_string: 'const retryBudget = computeRetryBudget(config.limits);', new_string: 'const retryBudget = 3;' },
    },
  ],
});

describe('follow-up reads', () => {
  const tracker = createFollowUpTracker();
  for (const m of [msg('u1', 'user', 'Lower the retry budget.'), read, result]) tracker.observe(m);

  it('charges nothing when the context still holds the edited line', () => {
    expect(tracker.check(wholeContext([read, result]), edit, 1)).toBeUndefined();
  });

  it('fetches the whole result back when a preview or a cut lost the edited line', () => {
    const preview: ContextMessage = { ...result, text: `${numbered.slice(0, 600)}\n[archived: ref:t1 — retrievable]` };
    const fetch = tracker.check(wholeContext([read, preview]), edit, 1);
    expect(fetch?.sources).toEqual(['t1']);
    expect(fetch?.message).toMatchObject({ id: 'follow-up:1', role: 'user', synthetic: 'retrieval' });
    expect(fetch?.message.text).toBe(`Fetched back (t1):\n${numbered}`);
  });

  it('also charges a strategy that dropped the result, but not one whose summary kept the line', () => {
    expect(tracker.check(wholeContext([read]), edit, 1)?.sources).toEqual(['t1']);
    const summary: ContextMessage = {
      ...msg('s1', 'user', 'Summary: line 41 reads const retryBudget = computeRetryBudget(config.limits);'),
      synthetic: 'summary',
    };
    expect(tracker.check(wholeContext([summary]), edit, 1)).toBeUndefined();
  });

  it('counts a quoted line of the completion, and ignores short or unknown lines', () => {
    const quote = msg('a3', 'assistant', `The culprit is this line:\nexport const settingNumber7 = readSetting('setting-7');\n}`);
    expect(tracker.check(wholeContext([read]), quote, 2)?.sources).toEqual(['t1']);
    const own = msg('a4', 'assistant', 'This is a sentence nobody has ever read in a tool result.', {
      toolCalls: [{ id: 'c4', name: 'edit_file', args: { old_string: 'return x;' } }],
    });
    expect(tracker.check(wholeContext([read]), own, 2)).toBeUndefined();
  });

  it('does not charge a re-read: the new result is in the transcript', () => {
    const reread = msg('a5', 'assistant', 'Reading it again.', { toolCalls: [{ id: 'c5', name: 'read_file', args: { path: 'src/config.ts' } }] });
    expect(tracker.check(wholeContext([read]), reread, 3)).toBeUndefined();
  });
});

describe('reads through a ref', () => {
  /** A 300-line output (about 18,000 characters: 5 chunks); line 200 is the one the agent edits. */
  const big = Array.from({ length: 300 }, (_, i) =>
    i === 199 ? 'const retryBudget = computeRetryBudget(config.limits);' : `export const settingNumber${i} = readSetting('setting-${i}');`,
  ).join('\n');
  const bigResult = msg('t1', 'tool', big, { toolCallId: 'c1', toolName: 'read_file' });
  const preview: ContextMessage = {
    ...bigResult,
    text: `${big.slice(0, 600)}\n[archived: ref:t1 — retrievable]`,
    synthetic: 'gatekeeper offload',
    replaces: ['t1'],
  };
  const setup = () => {
    const archive = createArchive();
    archive.put('ref:t1', [bigResult]);
    const tracker = createFollowUpTracker(archive);
    for (const m of [msg('u1', 'user', 'Lower the retry budget.'), read, bigResult]) tracker.observe(m);
    return tracker;
  };

  it('reads only the chunk holding the needed line through the ref the context offers', () => {
    const fetch = setup().check(wholeContext([read, preview]), edit, 3);
    expect(fetch?.sources).toEqual(['t1']);
    const text = fetch?.message.text ?? '';
    expect(text.split('\n')[0]).toBe('read_chunk ref:t1 [3/5]:');
    expect(text).toContain('const retryBudget = computeRetryBudget(config.limits);');
    expect(text).not.toContain("setting-0'");
    expect(text.length).toBeLessThan(4100);
  });

  it('a completion naming an offered ref reads it whole, once, even when it also needs a line of it', () => {
    const named: MessageEvent = { ...edit, text: 'Reading ref:t1 before the edit.' };
    const fetch = setup().check(wholeContext([read, preview]), named, 3);
    expect(fetch?.sources).toEqual(['t1']);
    expect(fetch?.message.text).toBe(`read_ref ref:t1:\n${big}`);
  });

  it('without a hint (the output dropped) or without an archive, the whole output is fetched', () => {
    expect(setup().check(wholeContext([read]), edit, 3)?.message.text).toBe(`Fetched back (t1):\n${big}`);
    const bare = createFollowUpTracker();
    for (const m of [read, bigResult]) bare.observe(m);
    expect(bare.check(wholeContext([read, preview]), edit, 3)?.message.text).toBe(`Fetched back (t1):\n${big}`);
  });
});

describe('follow-up reads in a run', () => {
  const transcript = [
    { type: 'session', id: 'follow-up', dialect: 'openai', model: 'gpt-4.1' },
    msg('s0', 'system', 'You are a coding agent.'),
    msg('u1', 'user', 'Lower the retry budget in src/config.ts.'),
    read,
    result,
    edit,
    msg('t2', 'tool', 'The file src/config.ts has been updated.', { toolCallId: 'c2', toolName: 'edit_file' }),
    msg('a3', 'assistant', 'Done.'),
  ];

  it('adds the fetch to the prompt of the strategy that cut the output, and to nobody else', async () => {
    const dir = writeFiles({
      't.ctx.jsonl': transcript.map((line) => JSON.stringify(line)).join('\n'),
      's.yaml': 'name: follow-up\ntranscript: t.ctx.jsonl\nprovider: openai\nmodel: gpt-4.1\nwindow: 100000\nseed: 1\nstrategies: [full, gatekeeper]\n',
    });
    const { units } = await runSuite({ scenarios: [join(dir, 's.yaml')] });
    const [full, gatekeeper] = units;
    expect(full?.summary.retrieval_tokens).toBe(0);
    // Read through gatekeeper's ref: one chunk, the whole 3,900-character output.
    expect(gatekeeper?.steps.map((s) => s.retrievalTokens)).toEqual([0, 974, 0]);
    expect(gatekeeper?.summary.retrieval_tokens).toBe(974);
    // Step 1's prompt carries the preview and the whole output fetched back: more than `full` sends.
    expect(gatekeeper?.steps[1]?.promptTokens ?? 0).toBeGreaterThan(full?.steps[1]?.promptTokens ?? 0);
  });
});

describe('the line index the units of a scenario share', () => {
  const random = createRandom(7);
  const lines = Array.from({ length: 30 }, (_, i) => `export const settingNumber${i} = readSetting('setting-${i}');`);
  const results = Array.from({ length: 12 }, (_, i) => msg(`t${i}`, 'tool', Array.from({ length: 5 }, () => random.pick(lines)).join('\n')));
  const completions = lines.map((line, i) => msg(`a${i}`, 'assistant', `Quoting:\n${line}`));
  const other = msg('t-other', 'tool', lines.slice(0, 3).join('\n'));
  // A copy is another object: a tracker fed copies indexes them on its own.
  const copy = (m: MessageEvent): MessageEvent => ({ ...m });

  it('answers a unit behind, ahead of or parted from the others as an index of its own would', () => {
    const ahead = createFollowUpTracker();
    for (const m of results) ahead.observe(m);
    const behind = createFollowUpTracker();
    const parted = createFollowUpTracker();
    const alone = createFollowUpTracker();
    const partedAlone = createFollowUpTracker();
    let fetches = 0;
    results.forEach((m, i) => {
      const p = i === 6 ? other : m;
      behind.observe(m);
      alone.observe(copy(m));
      parted.observe(p);
      partedAlone.observe(copy(p));
      const context = results.slice(0, i + 1).filter(() => random.chance(0.5));
      for (const completion of completions) {
        const fetch = alone.check(wholeContext(context), completion, i);
        if (fetch !== undefined) fetches += 1;
        expect(behind.check(wholeContext(context), completion, i), `step ${i}`).toEqual(fetch);
        expect(parted.check(wholeContext(context), completion, i), `step ${i}, parted`).toEqual(partedAlone.check(wholeContext(context), completion, i));
        if (i === results.length - 1) expect(ahead.check(wholeContext(context), completion, i)).toEqual(fetch);
      }
    });
    expect(fetches).toBeGreaterThan(50);
  });
});

describe('the context a tracker keeps from one check to the next', () => {
  const random = createRandom(11);
  const lines = Array.from({ length: 20 }, (_, i) => `export const settingNumber${i} = readSetting('setting-${i}');`);
  const results = Array.from({ length: 10 }, (_, i) => msg(`t${i}`, 'tool', Array.from({ length: 4 }, () => random.pick(lines)).join('\n')));
  const completions = lines.map((line, i) => msg(`a${i}`, 'assistant', `Quoting:\n${line}`));
  /** What a strategy may send in place of a result: a cut of it under the same id, or a summary it wrote. */
  const cut = (m: MessageEvent): ContextMessage => ({ ...m, text: m.text.split('\n').slice(0, 2).join('\n') });
  const summary = (): ContextMessage => ({ ...msg('s', 'user', `Summary: ${random.pick(lines)}`), synthetic: 'summary' });

  it('answers as a tracker that never checked before, whatever the strategy changes', () => {
    const kept = createFollowUpTracker();
    for (const m of results) kept.observe(m);
    let context: ContextMessage[] = [];
    let sent: ContextDiff = wholeContext([]);
    let fetches = 0;
    for (let step = 0; step < 200; step++) {
      const edit = random.int(0, 5);
      // Like a strategy, sometimes the same array with messages appended, sometimes a new one.
      if (edit <= 1) context.push(random.chance(0.3) ? cut(random.pick(results)) : random.pick(results));
      else if (edit === 2) context.push(summary());
      else if (edit === 3) context = context.slice(random.int(0, context.length));
      else if (edit === 4) context = [summary(), ...context.slice(random.int(0, context.length))];
      else context = context.filter(() => random.chance(0.8));
      const completion = random.pick(completions);
      const fresh = createFollowUpTracker();
      for (const m of results) fresh.observe(m);
      const fetch = fresh.check(wholeContext(context), completion, step);
      if (fetch !== undefined) fetches += 1;
      // The step's diff from the context sent before, as the step loop hands it.
      sent = diffContexts(sent.after, context);
      expect(kept.check(sent, completion, step), `step ${step}`).toEqual(fetch);
    }
    expect(fetches).toBeGreaterThan(20);
  });

  it('counts the last message sent under an id, as the context changes', () => {
    const tracker = createFollowUpTracker();
    for (const m of [read, result]) tracker.observe(m);
    const context: ContextMessage[] = [read, result, cut(result)];
    expect(tracker.check(wholeContext(context), edit, 1)?.sources).toEqual(['t1']);
    expect(tracker.check(wholeContext(context.slice(0, 2)), edit, 2)).toBeUndefined();
    context.splice(2, 1, { ...cut(result), id: 't0' });
    expect(tracker.check(wholeContext(context), edit, 3)).toBeUndefined();
  });
});
