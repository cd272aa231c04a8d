import { describe, expect, it } from 'vitest';
import { messageText } from '../../src/probes/context-text.js';
import { specificsSurvivalInMessages } from '../../src/probes/message-specifics.js';
import { SEPARATOR } from '../../src/probes/retention.js';
import { specificsSurvival, type Specifics } from '../../src/probes/specifics.js';
import type { MessageEvent } from '../../src/transcript/types.js';

const messages: MessageEvent[] = [
  { type: 'message', id: 'u', role: 'user', text: 'Fix src/auth/login.ts, the server on 8080 fails with 1.2.3' },
  { type: 'message', id: 'a', role: 'assistant', text: 'Running it.', toolCalls: [{ id: 'c', name: 'bash', args: { command: 'npm test -- login' } }] },
  { type: 'message', id: 't', role: 'tool', text: 'FAIL src/auth/login.ts after 18080 ms\nversion 1.2.3', toolCallId: 'c' },
];

const specifics: Specifics = {
  paths: ['src/auth/login.ts', 'src/other.ts'],
  commands: ['npm test -- login', 'npm run build'],
  numbers: ['8080', '1.2.3', '18080', '4040'],
};

describe('specificsSurvivalInMessages', () => {
  const copy: MessageEvent = { ...(messages[2] as MessageEvent) };
  const contexts: MessageEvent[][] = [[], messages, messages.slice(1), [messages[2] as MessageEvent], [copy, messages[0] as MessageEvent]];

  it('gives the shares specificsSurvival gives on the joined texts', () => {
    for (const context of contexts) {
      expect(specificsSurvivalInMessages(specifics, context)).toEqual(specificsSurvival(specifics, context.map(messageText).join(SEPARATOR)));
    }
    expect(specificsSurvivalInMessages(specifics, messages)).toEqual({ paths: 0.5, commands: 0.5, numbers: 0.75 });
    expect(specificsSurvivalInMessages(specifics, [messages[2] as MessageEvent])).toEqual({ paths: 0.5, commands: 0, numbers: 0.5 });
  });

  it('searches the joined texts for a value that could span two of them', () => {
    const spanning: Specifics = { paths: [], commands: [`login${SEPARATOR}FAIL`], numbers: [] };
    const context = [messages[1] as MessageEvent, messages[2] as MessageEvent];
    expect(specificsSurvivalInMessages(spanning, context)).toEqual({ paths: null, commands: 1, numbers: null });
    expect(specificsSurvivalInMessages({ paths: [], commands: [], numbers: [] }, messages)).toEqual({ paths: null, commands: null, numbers: null });
  });

  it('finds each number where searching for it would, digits on both sides or not', () => {
    // Values inside versions, after a `v`, after a dot, glued to letters, inside longer numbers.
    const texts = ['v20.11.1 and 20.11 then 11.1', 'x3.14y 13.145 1.123 a123b v1230', '1v20 vv20 v20', '2024-11-25 10.0.0.1:8080', '..7.. 007 70.0'];
    const numbers = ['v20.11.1', '20.11.1', '20.11', '11.1', '3.14', '123', '1230', 'v20', '2024', '10.0.0.1', '0.0', '8080', '7', '007', '70.0', '25', '999'];
    const context = texts.map((text, i): MessageEvent => ({ type: 'message', id: `n${i}`, role: 'tool', text, toolCallId: 'c' }));
    const only: Specifics = { paths: [], commands: [], numbers };
    for (let n = 1; n <= context.length; n++) {
      const part = context.slice(0, n);
      expect(specificsSurvivalInMessages(only, part)).toEqual(specificsSurvival(only, part.map(messageText).join(SEPARATOR)));
    }
    // Found on their own: all but '999'; '123' in "1.123", '1230' in "v1230", '7' in "..7..".
    expect(specificsSurvivalInMessages(only, context).numbers).toBe(16 / 17);
  });
});
