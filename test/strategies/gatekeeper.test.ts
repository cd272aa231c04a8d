import { describe, expect, it } from 'vitest';
import { gatekeeper, MAP_PROMPT, REDUCE_PROMPT } from '../../src/strategies/gatekeeper.js';
import type { StrategyModelCall } from '../../src/strategies/types.js';
import { retrievalHint } from '../../src/strategies/helpers/hints.js';
import type { TranscriptEvent } from '../../src/transcript/types.js';
import { createHarness, ids, msg, replay } from '../helpers/strategy-harness.js';
import {
  actionsOf,
  answer,
  continueSteps,
  driveSession,
  failure,
  isPaired,
  longSession,
  messageIds,
  runSteps,
  simulatedHarness,
  words,
} from './compaction-fixtures.js';

/** A 500-line log (about 5,000 characters): over the payload limit. */
const log = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join('\n');

const session = (older = 'ok'): TranscriptEvent[] => [
  msg.system('s'),
  msg.user('u1', 'Build the parser in src/parse.ts'),
  msg.call('a1', 'c1'),
  msg.tool('t1', 'c1', log),
  msg.assistant('a2', older),
  msg.user('u2'),
  msg.call('a3', 'c3'),
  msg.tool('t3', 'c3', 'small result'),
  msg.user('u3'),
  msg.assistant('a4'),
];

const textOf = (context: { id: string; text: string }[], id: string): string => context.find((m) => m.id === id)?.text ?? '';

describe('gatekeeper', () => {
  describe('pass-by-reference', () => {
    it('stores a large tool payload under ref:<id> and leaves a head / middle / tail preview with the key', async () => {
      const { context, harness } = await replay(gatekeeper, {}, session());
      const preview = context.find((m) => m.id === 't1');
      expect(preview?.text).toMatch(/^Tool output stored by reference \(\d+ characters\)/);
      expect(preview?.text).toContain('line 1\n');
      expect(preview?.text).toMatch(/\nline 2\d\d\n/);
      expect(preview?.text).toContain('line 500');
      expect(preview?.text).toContain(retrievalHint('ref:t1'));
      expect(preview?.toolCallId).toBe('c1');
      expect(harness.env.archive.lookup('ref:t1')?.[0]?.text).toBe(log);
      const offload = actionsOf(harness, 'offload')[0];
      expect(offload).toMatchObject({ mode: 'pass-by-reference', detail: 'ref:t1' });
      expect(offload?.tokensAfter).toBeLessThan(offload?.tokensBefore ?? 0);
    });

    it('keeps payloads under the limit verbatim, and everything when the limit is raised', async () => {
      const { context } = await replay(gatekeeper, {}, session());
      expect(textOf(context, 't3')).toBe('small result');
      const raised = await replay(gatekeeper, { payloadChars: 10_000 }, session());
      expect(textOf(raised.context, 't1')).toBe(log);
      expect(raised.harness.actions).toEqual([]);
    });
  });

  describe('single oversized message', () => {
    it('is compressed on its own (map-reduce over chunks), archived under its ref', async () => {
      const harness = createHarness({ window: 1000 });
      const { context } = await replay(gatekeeper, { buffer: 1, chunkTokens: 300 }, session(words(900, 'detail')), harness);
      expect(ids(context)).toEqual(messageIds(session()));
      expect(textOf(context, 'a2')).toMatch(/^Message compressed on its own \(\d+ tokens\), map-reduce over [3-9] chunks/);
      expect(textOf(context, 'a2')).toContain(retrievalHint('ref:a2'));
      expect(harness.env.archive.lookup('ref:a2')?.[0]?.text).toBe(words(900, 'detail'));
      expect(harness.calls.length).toBeGreaterThanOrEqual(3);
      expect(actionsOf(harness, 'compact').map((a) => a.mode)).toEqual(['single-message']);
    });

    it('never compresses the system message or the last 2 user messages', async () => {
      const huge: Record<string, string> = { s: words(800, 'rules'), u3: words(900, 'request') };
      const events = session().map((e) => (e.type === 'message' && huge[e.id] !== undefined ? { ...e, text: huge[e.id] as string } : e));
      const { context, harness } = await replay(gatekeeper, { buffer: 1 }, events, createHarness({ window: 1000 }));
      expect(textOf(context, 'u3')).toBe(words(900, 'request'));
      expect(textOf(context, 's')).toBe(words(800, 'rules'));
      expect(actionsOf(harness, 'compact').filter((a) => a.mode === 'single-message')).toEqual([]);
    });
  });

  describe('map-reduce past the buffer', () => {
    const big = session(words(500, 'progress'));

    it('summarizes the part older than the last 2 user messages, keeping the system message', async () => {
      const { context, harness } = await replay(gatekeeper, {}, big, createHarness({ window: 1000 }));
      expect(ids(context)).toEqual(['s', 'gatekeeper-summary-1', 'u2', 'a3', 't3', 'u3', 'a4']);
      expect(isPaired(context, big)).toBe(true);
      const compact = actionsOf(harness, 'compact');
      expect(compact.map((a) => a.mode)).toEqual(['map-reduce']);
      expect(compact[0]?.tokensAfter).toBeLessThan(compact[0]?.tokensBefore ?? 0);
      expect(actionsOf(harness, 'trigger')[0]?.mode).toBe('map-reduce');
    });

    it('archives the full history under a ref first and names it in the summary', async () => {
      const { context, harness } = await replay(gatekeeper, {}, big, createHarness({ window: 1000 }));
      expect(harness.env.archive.lookup('ref:history-1')?.map((m) => m.id)).toEqual(messageIds(big));
      expect(textOf(context, 'gatekeeper-summary-1')).toContain(retrievalHint('ref:history-1'));
    });

    it('lists outputs already replaced by a ref instead of summarizing their preview again', async () => {
      const { context, harness } = await replay(gatekeeper, {}, big, createHarness({ window: 1000 }));
      for (const call of harness.calls) expect(call.messages.map((m) => m.text).join('\n')).not.toContain('Tool output stored by reference');
      expect(textOf(context, 'gatekeeper-summary-1')).toContain(`Outputs stored by reference: ${retrievalHint('ref:t1')}`);
    });

    it('splits into chunks, summarizes each, then a metered reduce call merges the summaries', async () => {
      const reply = (call: StrategyModelCall) =>
        call.instruction === REDUCE_PROMPT
          ? answer(`merged ${call.messages.length} parts`)
          : answer(`decided: keep src/parse.ts\n${call.messages[0]?.id ?? ''}`);
      const harness = createHarness({ window: 1000, answer: reply });
      const { context } = await replay(gatekeeper, { chunkTokens: 150 }, big, harness);
      const maps = harness.calls.filter((c) => c.instruction === MAP_PROMPT);
      const reduces = harness.calls.filter((c) => c.instruction === REDUCE_PROMPT);
      expect(maps.length).toBeGreaterThan(2);
      for (const call of maps) expect(call).toMatchObject({ purpose: 'summary', maxOutputTokens: 400 });
      expect(reduces).toHaveLength(1);
      expect(reduces[0]?.purpose).toBe('summary');
      expect(reduces[0]?.messages.map((m) => m.text.split('\n')[1])).toEqual(maps.map(() => 'decided: keep src/parse.ts'));
      const summary = textOf(context, 'gatekeeper-summary-1');
      expect(summary).toContain(`merged ${maps.length} parts`);
      expect(summary).not.toContain('map-chunk-');
    });

    it('falls back to merging the summaries line by line when the reduce call fails', async () => {
      const reply = (call: StrategyModelCall) =>
        call.instruction === REDUCE_PROMPT ? failure({ kind: 'server', message: '503' }) : answer(`decided: keep src/parse.ts\n${call.messages[0]?.id ?? ''}`);
      const harness = createHarness({ window: 1000, answer: reply });
      const { context } = await replay(gatekeeper, { chunkTokens: 150 }, big, harness);
      const summary = textOf(context, 'gatekeeper-summary-1');
      expect(summary.match(/decided: keep src\/parse.ts/g)).toHaveLength(1);
      expect(summary).toContain(`map-chunk-${harness.calls.length - 1}`);
    });

    it('a manual /compact (control event) map-reduces the older part below the buffer', async () => {
      const harness = createHarness({ window: 1_000_000 });
      const { context } = await replay(gatekeeper, {}, [...big, { type: 'control', action: 'compact' }], harness);
      expect(ids(context)).toEqual(['s', 'gatekeeper-summary-1', 'u2', 'a3', 't3', 'u3', 'a4']);
      expect(actionsOf(harness, 'trigger')[0]?.reason).toBe('manual /compact');
      const quiet = await replay(gatekeeper, {}, big, createHarness({ window: 1_000_000 }));
      expect(quiet.harness.calls).toEqual([]);
    });

    it('never summarizes an earlier summary again', async () => {
      const run = await runSteps(gatekeeper, {}, big, createHarness({ window: 1000 }));
      const first = run.harness.calls.length;
      const more = [msg.assistant('a5', words(500, 'more')), msg.user('u4'), msg.assistant('a6', words(300, 'later')), msg.user('u5'), msg.assistant('a7')];
      const context = await continueSteps(gatekeeper, run, more);
      expect(ids(context)).toEqual(['s', 'gatekeeper-summary-1', 'gatekeeper-summary-2', 'u4', 'a6', 'u5', 'a7']);
      for (const call of run.harness.calls.slice(first)) expect(call.messages.map((m) => m.text).join('\n')).not.toContain('earlier messages');
    });

    it('does not summarize an older part smaller than one chunk summary budget', async () => {
      const { context, harness } = await replay(gatekeeper, { mapTokens: 2000 }, big, createHarness({ window: 1000 }));
      expect(ids(context)).toEqual(messageIds(big));
      expect(harness.calls).toEqual([]);
    });

    it('keeps going when a chunk summary fails: the chunk head stands in, with a note', async () => {
      const harness = createHarness({ window: 1000, answer: () => failure({ kind: 'rate-limit', message: '429' }) });
      const { context } = await replay(gatekeeper, {}, big, harness);
      expect(ids(context)).toEqual(['s', 'gatekeeper-summary-1', 'u2', 'a3', 't3', 'u3', 'a4']);
      expect(actionsOf(harness, 'note').length).toBeGreaterThan(0);
      expect(actionsOf(harness, 'compact')[0]?.reason).toMatch(/chunk summaries failed/);
    });

    it('does nothing below the buffer', async () => {
      const { context, harness } = await replay(gatekeeper, {}, big, createHarness({ window: 100_000 }));
      expect(ids(context)).toEqual(messageIds(big));
      expect(harness.calls).toEqual([]);
    });
  });

  it('gives the same output for the same input', async () => {
    const first = await replay(gatekeeper, {}, session(words(500, 'progress')), createHarness({ window: 1000 }));
    const second = await replay(gatekeeper, {}, session(words(500, 'progress')), createHarness({ window: 1000 }));
    expect(second.context).toEqual(first.context);
  });

  it('reports the buffer and single-message sizes and documents every option with a default', () => {
    const defaults = gatekeeper.options.parse({});
    expect(defaults).toEqual({
      payloadChars: 2000,
      previewChars: 600,
      singleMessage: 0.75,
      buffer: 0.6,
      keepUserTurns: 2,
      chunkTokens: 3000,
      mapTokens: 400,
      reduceTokens: 1200,
    });
    expect(gatekeeper.thresholds?.(defaults, 48_000)).toEqual([
      { label: 'map-reduce buffer', tokens: 28_800 },
      { label: 'single message', tokens: 36_000 },
    ]);
  });

  it('survives a synthetic session that outgrows the window, keeping every invariant', async () => {
    const drive = await driveSession(gatekeeper, {}, longSession(), simulatedHarness(20_000));
    expect(drive.violations).toEqual([]);
    expect(drive.overflows).toBe(0);
    expect(drive.actions.some((a) => a.action === 'offload')).toBe(true);
  });
});
