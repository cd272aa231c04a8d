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

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}
