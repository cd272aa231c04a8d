import { runWeakMap } from '../memo.js';
import type { ContextMessage } from './types.js';

/**
 * A message as the agent really sent it. An agent whose tool protocol is plain text
 * (`sentAsText`: mini-swe-agent writes one bash block in its reply and gets the output back as a
 * user message) is imported with tool calls and tool results, so that strategies can mask or
 * truncate its observations; the model, though, saw plain assistant and user text. Renderers and
 * the tokenizer go through this view, so the replay sends and charges no tool-call framing and
 * no second copy of the command.
 */
export function asSent<M extends ContextMessage>(message: M): M {
  if (message.sentAsText !== true) return message;
  // One plain copy per message: every strategy and request of a run re-sends the same messages,
  // and the tokenizer's per-object count memo then hits on the copy too. Messages are never
  // changed once built, so the copy stays true.
  const known = plainCopies.get(message);
  if (known !== undefined) return known as M;
  const plain = plainOf(message);
  plainCopies.set(message, plain);
  return plain;
}

const plainCopies = runWeakMap<ContextMessage, ContextMessage>();

function plainOf<M extends ContextMessage>(message: M): M {
  if (message.role === 'assistant' && message.toolCalls !== undefined) {
    const { toolCalls: _calls, ...plain } = message;
    return plain as M;
  }
  if (message.role === 'tool') {
    const { toolCallId: _id, toolName: _name, ...plain } = message;
    return { ...plain, role: 'user' } as M;
  }
  return message;
}
