import { describe, expect, it } from 'vitest';
import { createFollowUpTracker } from '../../src/replay/follow-up.js';
import { createArchive } from '../../src/replay/archive.js';
import { prepareNeededSet } from '../../src/probes/needed/measure.js';
import { retrievalHint } from '../../src/strategies/helpers/hints.js';
import { wholeContext } from '../../src/transcript/context-diff.js';
import type { ContextMessage, MessageEvent, Transcript } from '../../src/transcript/types.js';
import type { NeededUse } from '../../src/probes/needed/types.js';

const call: MessageEvent = {
  type: 'message',
  id: 'a0',
  role: 'assistant',
  text: '',
  toolCalls: [{ id: 'c1', name: 'Bash', args: { command: 'cat settings.ini' } }],
};
const output: MessageEvent = { type: 'message', id: 't1', role: 'tool', toolCallId: 'c1', text: 'retry_budget_ms = 2750\nspool_dir = /var/spool/ingest-q7' };
const note: MessageEvent = { type: 'message', id: 'u1', role: 'user', text: 'Tag releases as rel-2025-bravo.' };
const ack: MessageEvent = { type: 'message', id: 'a1', role: 'assistant', text: 'ok' };
const completion: MessageEvent = { type: 'message', id: 'a2', role: 'assistant', text: 'Writing to /var/spool/ingest-q7 with tag rel-2025-bravo.' };
const transcript: Transcript = {
  header: { type: 'session', id: 's', dialect: 'openai' },
  events: [call, output, note, ack, completion],
  file: 'test',
  skipped: [],
  unknown: {},
};
const use = (fact: string, sourceIndex: number): NeededUse => ({ fact, kind: 'path', sourceIndex, sourceStep: 1, useIndex: 4, useStep: 2 });
const needed = prepareNeededSet(transcript, [use('/var/spool/ingest-q7', 1), use('rel-2025-bravo', 2)]);

/** The follow-up fetch of step 2 on `context`, the transcript observed up to the completion. */
function fetchOn(context: readonly ContextMessage[], stored: Record<string, MessageEvent[]> = {}) {
  const archive = createArchive();
  for (const [key, messages] of Object.entries(stored)) archive.put(key, messages);
  const tracker = createFollowUpTracker(archive, needed);
  for (const message of [call, output, note, ack]) {
    archive.add(message);
    tracker.observe(message);
  }
  return tracker.check(wholeContext(context), completion, 2);
}

describe('needed facts read back (charged as follow-up reads)', () => {
  it('fetches nothing when the context holds the facts, verbatim or in a summary', () => {
    expect(fetchOn([call, output, note, ack])).toBeUndefined();
    const summary: ContextMessage = { type: 'message', id: 's1', role: 'user', text: 'Spool /var/spool/ingest-q7, tag rel-2025-bravo.', synthetic: 'summary' };
    expect(fetchOn([summary, ack])).toBeUndefined();
  });

  it('re-runs the command whose call is still sent, and reads a ref a hint offers, chunk by chunk', () => {
    const cleared: ContextMessage = { ...output, text: '[cleared]', replaces: [output.id] };
    const outputOnly = fetchOn([call, cleared, note, ack]);
    expect(outputOnly?.sources).toEqual(['t1']);
    expect(outputOnly?.message.text).toContain('spool_dir = /var/spool/ingest-q7');

    const pointer: ContextMessage = { type: 'message', id: 'p', role: 'user', text: `earlier turns ${retrievalHint('task/1')}`, synthetic: 'tombstone' };
    const throughRef = fetchOn([pointer, ack], { 'task/1': [note] });
    expect(throughRef?.sources).toEqual(['u1']);
    expect(throughRef?.message.text).toMatch(/^read_chunk task\/1 \[1\/1\]:\nTag releases as rel-2025-bravo\./);
  });

  it('fetches nothing for a fact nothing leads back to (lost)', () => {
    expect(fetchOn([ack])).toBeUndefined();
  });
});
