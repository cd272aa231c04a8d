import { describe, expect, it } from 'vitest';
import { extractNeededUses } from '../../../src/probes/needed/extract.js';
import { NeededMeter, prepareNeededSet } from '../../../src/probes/needed/measure.js';
import { readLineReferences } from '../../../src/probes/needed/line-numbers.js';
import { wholeContext } from '../../../src/transcript/context-diff.js';
import type { MessageEvent, ToolCall, Transcript, TranscriptEvent } from '../../../src/transcript/types.js';

function transcriptOf(events: TranscriptEvent[]): Transcript {
  return { header: { type: 'session', id: 's', dialect: 'openai' }, events, file: 'hand-made', skipped: [], unknown: {} };
}

let counter = 0;
const message = (role: MessageEvent['role'], text: string, toolCalls?: ToolCall[], toolCallId?: string): MessageEvent => ({
  type: 'message',
  id: `m${++counter}`,
  role,
  text,
  ...(toolCalls === undefined ? {} : { toolCalls }),
  ...(toolCallId === undefined ? {} : { toolCallId }),
});
/** An assistant step running a shell command, and its result. */
function shell(command: string, output: string): MessageEvent[] {
  const call: ToolCall = { id: `c${++counter}`, name: 'bash', args: { command } };
  return [message('assistant', '', [call]), message('tool', output, undefined, call.id)];
}
function filler(n: number): MessageEvent[] {
  return Array.from({ length: n }, () => shell('ls', 'nothing here')).flat();
}

const LISTING = ['   200\t        result = copy.copy(self)', '   201\t        memo[id(self)] = result', '   202\t        return result'].join('\n');
const listed = shell("nl -ba django/forms/fields.py | sed -n '200,202p'", LISTING);
/** The uses of a session whose fact is a listed line (`202\t…`), the others (its paths, names) left out. */
function lineUses(session: Transcript) {
  return extractNeededUses(session).filter((u) => /^\d+(?:\t|→|:)/.test(u.fact));
}
const insert = "sed -i '202i\\        result.error_messages = self.error_messages.copy()' django/forms/fields.py";

describe('line numbers as needed facts', () => {
  it('counts a line the agent addresses by number as the line a listing of that file printed', () => {
    const session = transcriptOf([message('user', 'Fix the deepcopy.'), ...listed, ...filler(11), ...shell(insert, '')]);
    expect(lineUses(session)).toEqual([
      expect.objectContaining({ fact: '202\t        return result', kind: 'number', sourceIndex: 2, sourceStep: 1, useStep: 12 }),
    ]);
  });

  it('needs a numbered listing of the same file: a bare 202, or a listing of another file, is none', () => {
    const bare = shell('grep -c deepcopy django/forms/fields.py', 'return result 202 times');
    expect(lineUses(transcriptOf([message('user', 'Go.'), ...bare, ...filler(11), ...shell(insert, '')]))).toEqual([]);
    const other = shell("nl -ba django/forms/widgets.py | sed -n '200,202p'", LISTING);
    expect(lineUses(transcriptOf([message('user', 'Go.'), ...other, ...filler(11), ...shell(insert, '')]))).toEqual([]);
  });

  it('leaves out a line number the file was edited since: the listing is stale', () => {
    const edit = shell("sed -i 's/copy.copy/copy.deepcopy/' django/forms/fields.py", '');
    expect(lineUses(transcriptOf([message('user', 'Go.'), ...listed, ...filler(5), ...edit, ...filler(5), ...shell(insert, '')]))).toEqual([]);
  });

  it("sees a tool's edit as a change, its text nested or not (`MultiEdit`'s `edits[]`), and a Read as none", () => {
    const listedRead: ToolCall = { id: 'r0', name: 'Read', args: { file_path: '/repo/app.py' } };
    const listing = message('tool', '    40→def load_config(path):\n    41→    return parse(path)', undefined, 'r0');
    const edit = (args: Record<string, unknown>): MessageEvent => message('assistant', '', [{ id: `e${++counter}`, name: 'MultiEdit', args }]);
    const session = (between: MessageEvent[]): Transcript =>
      transcriptOf([
        message('user', 'Go.'),
        message('assistant', '', [listedRead]),
        listing,
        ...between,
        ...filler(11),
        message('assistant', 'See app.py:41.'),
      ]);
    expect(lineUses(session([])).map((u) => u.fact)).toEqual(['41→    return parse(path)']);
    expect(lineUses(session([edit({ file_path: '/repo/app.py', edits: [{ old_string: 'parse(path)', new_string: 'parse(path, strict=True)' }] })]))).toEqual(
      [],
    );
    expect(lineUses(session([edit({ file_path: '/repo/app.py', offset: 40, limit: 2 })])).map((u) => u.fact)).toEqual(['41→    return parse(path)']);
  });

  it('sees an apply_patch envelope as a change of the files it names, as an argument or a heredoc', () => {
    const patch = '*** Begin Patch\n*** Update File: django/forms/fields.py\n@@\n-        return result\n+        return result  # copied\n*** End Patch';
    const custom = message('assistant', '', [{ id: `p${++counter}`, name: 'apply_patch', args: { input: patch } }]);
    const heredoc = shell(`apply_patch <<'EOF'\n${patch}\nEOF`, 'Success. Updated the following files:\nM django/forms/fields.py');
    const other = message('assistant', '', [{ id: `p${++counter}`, name: 'apply_patch', args: { input: patch.replace('fields.py', 'widgets.py') } }]);
    const session = (between: MessageEvent[]): Transcript =>
      transcriptOf([message('user', 'Go.'), ...listed, ...filler(5), ...between, ...filler(5), ...shell(insert, '')]);
    expect(lineUses(session([other]))).toHaveLength(1);
    expect(lineUses(session([custom]))).toEqual([]);
    expect(lineUses(session(heredoc))).toEqual([]);
  });

  it('reads `file:line` in the agent words, from a Read listing (`   3→go 1.23.0`), and never line 1', () => {
    const read: ToolCall = { id: 'r1', name: 'Read', args: { file_path: '/repo/go.mod' } };
    const session = transcriptOf([
      message('user', 'Why is the toolchain newer?'),
      message('assistant', '', [read]),
      message('tool', '     1→module claude-code-helper\n     2→\n     3→go 1.23.0', undefined, 'r1'),
      ...filler(11),
      message('assistant', 'go.mod:3 sets `go 1.23.0`; go.mod:1 names the module.'),
    ]);
    expect(lineUses(session).map((u) => u.fact)).toEqual(['3→go 1.23.0']);
    expect(readLineReferences(message('assistant', 'see go.mod:1 and app.py:12'))).toEqual([{ file: 'app.py', line: 12 }]);
  });

  it('is held where the context holds the listing line, not where it holds the bare number', () => {
    const use = message('assistant', '', [{ id: 'c-use', name: 'bash', args: { command: insert } }]);
    const session = transcriptOf([message('user', 'Go.'), ...listed, ...filler(11), use]);
    const uses = lineUses(session);
    expect(uses).toHaveLength(1);
    const outcomeOn = (context: MessageEvent[]): string => {
      const meter = new NeededMeter(prepareNeededSet(session, uses));
      meter.sent(12, wholeContext(context), { get: () => undefined, lookup: () => undefined });
      return meter.records()[0]?.outcome ?? '';
    };
    expect(outcomeOn([listed[1] as MessageEvent])).toBe('kept');
    expect(outcomeOn([message('tool', 'line 202 of fields.py: return result')])).toBe('lost');
  });
});
