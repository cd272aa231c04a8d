import { runWeakMap } from '../../memo.js';
import type { ContextMessage } from '../../transcript/types.js';

/**
 * One derived value per original message and edit. Strategies re-derive their edits (a cleared
 * result, a cut, a message without its thinking) from the whole history at every step; handing
 * back what they derived before keeps every per-message memo downstream hitting — token counts,
 * prompt-cache fingerprints, encoded request bodies, probe findings — so that a step costs what
 * changed rather than the whole context. `edit` must name everything the value depends on besides
 * the message (messages are never changed once built); what depends on a unit's tokenizer names
 * it with `scopeOf(env.count)`.
 */
const derived = runWeakMap<ContextMessage, Map<unknown, unknown>>();

/** `edit` is a name, or an object that names the edit by identity (a module's placeholder function, say: never one made per call). */
export function deriveOnce<T>(message: ContextMessage, edit: string | object, build: () => T): T {
  let edits = derived.get(message);
  if (edits === undefined) derived.set(message, (edits = new Map<unknown, unknown>()));
  if (edits.has(edit)) return edits.get(edit) as T;
  const value = build();
  edits.set(edit, value);
  return value;
}

const scopes = new WeakMap<object, number>();
let lastScope = 0;

/** A name for an object (a unit's counter, say) to put in an `edit`: equal for the same object only. */
export function scopeOf(owner: object): string {
  let id = scopes.get(owner);
  if (id === undefined) scopes.set(owner, (id = ++lastScope));
  return `#${id}`;
}
