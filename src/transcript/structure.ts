import type { TranscriptEvent } from './types.js';

/**
 * Groups and steps are derived from the event list on demand (DESIGN.md §2), never stored beside
 * it, so they cannot drift from the events they describe.
 *
 * The group rule: group `i` starts at the `i`-th user message (0-based) and holds every event up
 * to the next user message. Events before the first user message (the system prompt, any
 * preamble) belong to group 0, which therefore starts at event 0 — this keeps group indices equal
 * to user-message indices, as `drop-group` counts them. A transcript without user messages is one
 * group; an empty one has none.
 */
export interface MessageGroup {
  /** 0-based, in order of user messages. */
  index: number;
  /** Index of the first event of the group in `events`. */
  start: number;
  /** Index one past the last event of the group. */
  end: number;
  /** The user message that opens the group (absent only when the transcript has no user message). */
  userMessageId?: string;
  /** Ids of the messages in the group, in order. */
  messageIds: string[];
}

/** One model call of the recorded agent: the assistant message that was its completion. */
export interface StepRef {
  /** 0-based step index (the n-th assistant message). */
  index: number;
  messageId: string;
  /** Index of the assistant message in `events`. */
  eventIndex: number;
}

/** The groups of a transcript; see the group rule above. */
export function deriveGroups(events: readonly TranscriptEvent[]): MessageGroup[] {
  const groups: MessageGroup[] = [];
  let current: MessageGroup | undefined;
  events.forEach((event, eventIndex) => {
    const isUser = event.type === 'message' && event.role === 'user';
    if (current === undefined || (isUser && current.userMessageId !== undefined)) {
      current = { index: groups.length, start: eventIndex, end: eventIndex, messageIds: [] };
      groups.push(current);
    }
    if (event.type === 'message') {
      if (isUser) current.userMessageId = event.id;
      current.messageIds.push(event.id);
    }
    current.end = eventIndex + 1;
  });
  return groups;
}

/** The steps of a transcript: every assistant message completes one step. */
export function deriveSteps(events: readonly TranscriptEvent[]): StepRef[] {
  const steps: StepRef[] = [];
  events.forEach((event, eventIndex) => {
    if (event.type === 'message' && event.role === 'assistant') {
      steps.push({ index: steps.length, messageId: event.id, eventIndex });
    }
  });
  return steps;
}

/** The number of steps (assistant messages), without building the step list. */
export function countSteps(events: readonly TranscriptEvent[]): number {
  let count = 0;
  for (const event of events) if (event.type === 'message' && event.role === 'assistant') count++;
  return count;
}

/** The group that holds the event at `eventIndex`, or undefined when it is out of range. */
export function findGroup(groups: readonly MessageGroup[], eventIndex: number): MessageGroup | undefined {
  return groups.find((group) => eventIndex >= group.start && eventIndex < group.end);
}

/**
 * The first step whose context can contain the event at `eventIndex`: the step after the last
 * assistant message at or before it (an assistant message is visible from the step after it completed).
 */
export function firstVisibleStep(events: readonly TranscriptEvent[], eventIndex: number): number {
  let count = 0;
  for (let i = 0; i <= eventIndex && i < events.length; i++) {
    const event = events[i];
    if (event?.type === 'message' && event.role === 'assistant') count++;
  }
  return count;
}
