/**
 * Deep-freezes a transcript's events once they enter a run: every memo of the replay (token sums,
 * the prompt-cache model, retention, the simulator) keys on message objects and assumes a message
 * never changes after it was sent. A strategy that edits one in place (`m.text = …`) would be
 * charged for the text it had before; frozen, the edit throws (replay/strategy-crash.ts turns the
 * throw into a crash that says so). Objects already frozen are not walked again, so freezing the
 * same transcript for every unit costs one check per event.
 */
export function freezeEvents<T extends object>(events: readonly T[]): readonly T[] {
  if (Object.isFrozen(events)) return events;
  for (const event of events) deepFreeze(event);
  return Object.freeze(events);
}

/**
 * Deep-freezes every message of a context as it enters a request, the strategy's own (summaries,
 * injected blocks, cut copies) as well as the transcript's: a message is then the same value for as
 * long as anything holds it, and a strategy that edits one it made in an earlier step throws
 * instead of silently changing what every per-message memo already counted. A message frozen
 * before (every transcript message, every message kept from the last step) costs one check.
 */
export function freezeMessages(messages: readonly object[]): void {
  for (const message of messages) deepFreeze(message);
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}
