import { describe, expect, it } from 'vitest';
import { createArchive } from '../../src/replay/archive.js';
import { chooseRetrievalKeys, fetchArchived, needsRetrieval, retrievedMessage } from '../../src/probes/retrieval.js';
import { NOT_FOUND_ANSWER } from '../../src/simulator/reader.js';
import { retrievalHint } from '../../src/strategies/helpers/hints.js';
import type { ContextMessage, MessageEvent } from '../../src/transcript/types.js';
import { withRunMemos } from '../../src/memo.js';

const msg = (id: string, role: MessageEvent['role'], text: string, extra: Partial<ContextMessage> = {}): ContextMessage => ({
  type: 'message',
  id,
  role,
  text,
  ...extra,
});

/** A read of config/settings.yaml whose result a strategy replaced by a tombstone with a hint. */
const context: ContextMessage[] = [
  msg('m1', 'user', 'Fix the ledger export.'),
  msg('m2', 'assistant', 'Reading the service settings.', { toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'config/settings.yaml' } }] }),
  msg('m3', 'tool', `[output removed] ${retrievalHint('m3')}`, { toolCallId: 'c1', synthetic: 'tombstone' }),
  msg('m4', 'assistant', 'Now the tests.', { toolCalls: [{ id: 'c2', name: 'run_tests', args: { command: 'pytest tests/test_export.py' } }] }),
  msg('m5', 'tool', `[output removed] ${retrievalHint('task-2')}`, { toolCallId: 'c2', synthetic: 'tombstone' }),
  msg('m6', 'assistant', 'Summary so far: nothing about ports.'),
];

describe('chooseRetrievalKeys', () => {
  const question = 'Which port is the ledger-api listener set to in config/settings.yaml?';

  it('follows a hint next to the passage the question matches, when the reader found nothing', () => {
    expect(chooseRetrievalKeys(question, context, NOT_FOUND_ANSWER)).toEqual(['m3']);
  });

  it('does not retrieve when the reader answered', () => {
    expect(needsRetrieval('The port is 41234.')).toBe(false);
    expect(chooseRetrievalKeys(question, context, 'port: 41234  # ledger-api listener')).toEqual([]);
  });

  it('follows a hint the answer itself was read from', () => {
    const answer = `[output removed] ${retrievalHint('task-2')}`;
    expect(needsRetrieval(answer)).toBe(true);
    expect(chooseRetrievalKeys('Which test failed in tests/test_export.py?', context, answer)).toEqual(['task-2']);
  });

  it('links a call to its own result only, not to the messages beside it', () => {
    // m4's call matches; m3 (the result before it) belongs to another call.
    expect(chooseRetrievalKeys('Which test failed in tests/test_export.py?', context, NOT_FOUND_ANSWER)).toEqual(['task-2']);
  });

  it('ignores hints far from what the question asks about', () => {
    expect(chooseRetrievalKeys('Which Kubernetes namespace did the agent deploy to?', context, NOT_FOUND_ANSWER)).toEqual([]);
  });

  it('follows the hints by the three best-matching lines, the later first among equals', () => {
    const read = (n: number): ContextMessage[] => [
      msg(`a${n}`, 'assistant', `Reading shard ${n}.`, {
        toolCalls: [{ id: `c${n}`, name: 'read_file', args: { path: n === 2 ? 'shards/ledger-archive.csv' : `shards/ledger-${n}.csv` } }],
      }),
      msg(`t${n}`, 'tool', `[output removed] ${retrievalHint(`key-${n}`)}`, { toolCallId: `c${n}`, synthetic: 'tombstone' }),
    ];
    const shards = [1, 2, 3, 4, 5].flatMap(read);
    // Every read matches `ledger` and `shards` alike: the last three reads are the best lines, and
    // at most two keys are fetched, the latest first.
    expect(chooseRetrievalKeys('Which rows did the ledger shards hold?', shards, NOT_FOUND_ANSWER)).toEqual(['key-5', 'key-4']);
    // A line holding more of the words wins over later ones.
    const question = 'Which rows did the ledger shards of the archive hold?';
    expect(chooseRetrievalKeys(question, shards, NOT_FOUND_ANSWER)[0]).toBe('key-2');
  });

  it('chooses the same keys within a run, where what each message holds is kept per question and message', () => {
    const questions = [
      'Which port is the ledger-api listener set to in config/settings.yaml?',
      'Which test failed in tests/test_export.py?',
      'Which Kubernetes namespace did the agent deploy to?',
    ];
    // The same message objects asked about again, in another order, and in a context a strategy rewrote.
    const rewritten = [context[0], msg('m2', 'assistant', 'Reading config/settings.yaml for the ledger-api port.'), ...context.slice(2)] as ContextMessage[];
    const asks = (): string[][] =>
      [...questions, ...[...questions].reverse()].flatMap((q) => [
        chooseRetrievalKeys(q, context, NOT_FOUND_ANSWER),
        chooseRetrievalKeys(q, rewritten, NOT_FOUND_ANSWER),
      ]);
    const alone = asks();
    expect(withRunMemos({}, asks)).toEqual(alone);
    // The rewritten m2 names the port but calls no tool: no result, so no hint, is linked to it.
    expect(alone.slice(0, 4)).toEqual([['m3'], [], ['task-2'], ['task-2']]);
  });

  it('never looks at anything but the question, the context and the answer', () => {
    expect(chooseRetrievalKeys.length).toBe(3);
  });
});

describe('fetchArchived', () => {
  const archive = createArchive();
  const original = msg('m3', 'tool', 'services:\n  ledger-api:\n    port: 41234  # ledger-api listener', { toolCallId: 'c1' }) as MessageEvent;
  archive.add(original);
  archive.put('task-2', [msg('m5', 'tool', 'FAILED tests/test_export.py::test_totals') as MessageEvent]);

  it('resolves message ids and archive keys, and drops unknown keys', () => {
    const fetched = fetchArchived(['m3', 'task-2', 'nowhere'], archive);
    expect(fetched.map((f) => [f.key, f.messages.map((m) => m.id)])).toEqual([
      ['m3', ['m3']],
      ['task-2', ['m5']],
    ]);
  });

  it('puts the fetched text in one message before the question', () => {
    const message = retrievedMessage('p1', fetchArchived(['m3'], archive));
    expect(message).toMatchObject({ role: 'user', id: 'retrieved:p1', synthetic: 'retrieval' });
    expect(message.text).toContain('Retrieved from the archive (m3):');
    expect(message.text).toContain('port: 41234');
  });
});
