import { describe, expect, it } from 'vitest';
import { mergeAdjacentUserMessages } from '../../../../src/transcript/importers/shared/merge-user-turns.js';
import type { TranscriptEvent } from '../../../../src/transcript/types.js';

const user = (id: string, text: string): TranscriptEvent => ({ type: 'message', id, role: 'user', text });
const assistant = (id: string): TranscriptEvent => ({ type: 'message', id, role: 'assistant', text: 'ok' });

describe('mergeAdjacentUserMessages', () => {
  it.each([
    {
      name: 'a slash command logged as three records becomes one turn',
      events: [assistant('a'), user('c', 'Caveat'), user('x', '<command-name>/exit'), user('o', '(no content)')],
      ids: ['a', 'c'],
      texts: ['ok', 'Caveat\n\n<command-name>/exit\n\n(no content)'],
    },
    {
      name: 'user turns apart stay apart',
      events: [user('u1', 'one'), assistant('a'), user('u2', 'two')],
      ids: ['u1', 'a', 'u2'],
      texts: ['one', 'ok', 'two'],
    },
    {
      name: 'a task event between them keeps them apart',
      events: [user('u1', 'one'), { type: 'task', id: 't', status: 'in_progress' } as TranscriptEvent, user('u2', 'two')],
      ids: ['u1', 't', 'u2'],
      texts: ['one', undefined, 'two'],
    },
  ])('$name', ({ events, ids, texts }) => {
    const merged = mergeAdjacentUserMessages(events);
    expect(merged.map((e) => ('id' in e ? e.id : undefined))).toEqual(ids);
    expect(merged.map((e) => (e.type === 'message' ? e.text : undefined))).toEqual(texts);
  });
});
