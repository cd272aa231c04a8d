import { describe, expect, it } from 'vitest';
import { createTranscriptBuilder, LOST_RESULT_TEXT } from '../../../../src/transcript/importers/shared/builder.js';

/** A session whose first call's result line was lost (skipped by --lenient), then goes on; the last call is still open at the end. */
function build() {
  const b = createTranscriptBuilder({ file: 'log.jsonl', format: 'claude-code', dialect: 'anthropic', lenient: true });
  b.addMessage({ id: 'u1', role: 'user', text: 'fix it' });
  const a1 = b.addMessage({ id: 'a1', role: 'assistant', text: '' });
  b.addToolCall(a1, { callId: 'c1', name: 'Read', args: { file_path: 'a.ts' } });
  b.addToolCall(a1, { callId: 'c2', name: 'Read', args: { file_path: 'b.ts' } });
  b.addToolResult({ id: 'r2', callId: 'c2', text: 'b' });
  b.addMessage({ id: 'a2', role: 'assistant', text: 'done?' });
  const a3 = b.addMessage({ id: 'a3', role: 'assistant', text: '' });
  b.addToolCall(a3, { callId: 'c3', name: 'Bash', args: { command: 'ls' } });
  return b.build({ id: 's' });
}

describe('a call whose result the log lost', () => {
  it("is answered by a stand-in after its turn's other results when the session goes on, and counted", () => {
    const transcript = build();
    const messages = transcript.events.flatMap((e) => (e.type === 'message' ? [[e.id, e.role, e.toolCallId ?? '', e.text]] : []));
    expect(messages).toEqual([
      ['u1', 'user', '', 'fix it'],
      ['a1', 'assistant', '', ''],
      ['r2', 'tool', 'c2', 'b'],
      ['c1:lost-result', 'tool', 'c1', LOST_RESULT_TEXT],
      ['a2', 'assistant', '', 'done?'],
      ['a3', 'assistant', '', ''],
    ]);
    expect(transcript.unknown).toEqual({ 'tool call whose result was not recorded': 1 });
  });
});
