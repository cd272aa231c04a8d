import { describe, expect, it } from 'vitest';
import { injectAfterSystem, scratchpadMessage } from '../../../src/strategies/helpers/scratchpad.js';
import type { ContextMessage } from '../../../src/transcript/types.js';

describe('scratchpad blocks', () => {
  it('are the same object while their notes stay the same, and a new one when they change', () => {
    const first = scratchpadMessage('pad-test', ['keep the port at 8080']);
    const again = scratchpadMessage('pad-test', ['keep the port at 8080']);
    expect(again).toBe(first);
    const changed = scratchpadMessage('pad-test', ['keep the port at 8080', 'tests live in spec/']);
    expect(changed).not.toBe(first);
    expect(changed?.text).toBe('### ACTIVE CONTEXT (scratchpad: notes kept across evictions)\n- keep the port at 8080\n- tests live in spec/');
    expect(scratchpadMessage('pad-test', [])).toBeUndefined();
  });

  it('keep a context the same objects in the same order from one step to the next', () => {
    const system: ContextMessage = { type: 'message', id: 's', role: 'system', text: 'system' };
    const user: ContextMessage = { type: 'message', id: 'u', role: 'user', text: 'task' };
    const step = () => injectAfterSystem([system, user], [scratchpadMessage('pad-order', ['a note'])]);
    const [a, b] = [step(), step()];
    expect(a.map((m) => m.id)).toEqual(['s', 'pad-order', 'u']);
    a.forEach((m, i) => expect(b[i]).toBe(m));
  });
});
