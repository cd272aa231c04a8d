import { describe, expect, it } from 'vitest';
import { BOUNDED_MAX_FILES, createFileState, noteToolCall, noteToolResult, restoreAfterCompaction } from '../../src/transcript/claude-restored.js';

/** Reads `path` through a Read call with id `id` whose result is `text`. */
function read(state: ReturnType<typeof createFileState>, id: string, path: string, text: string): void {
  noteToolCall(state, { id, name: 'Read', input: { file_path: path } });
  noteToolResult(state, id, text, false);
}

describe('the files Claude Code re-attaches after a compaction', () => {
  it('re-attaches every line the agent read of a file, not only its last partial read', () => {
    const state = createFileState();
    read(state, 'a', '/p/run.sh', '     1→#!/bin/bash\n     2→set -e');
    read(state, 'b', '/p/run.sh', '   466→from agents import AgentSystem\n   467→\n<system-reminder>\nnote\n</system-reminder>');
    read(state, 'c', '/p/run.sh', '     2→set -eu\n     3→cd "$DIR"');
    const [file] = restoreAfterCompaction(state);
    expect(file).toContain('     1→#!/bin/bash\n     2→set -eu\n     3→cd "$DIR"\n   466→from agents import AgentSystem\n   467→');
    expect(file).not.toContain('set -e\n');
  });

  it('takes a written file, or a read that is not numbered lines, as the whole new content', () => {
    const state = createFileState();
    read(state, 'a', '/p/a.txt', '     1→old line');
    noteToolCall(state, { id: 'w', name: 'Write', input: { file_path: '/p/a.txt', content: 'new content' } });
    noteToolResult(state, 'w', 'File created successfully', false);
    const [file] = restoreAfterCompaction(state);
    expect(file).toContain('Result of calling the Read tool: new content\n');
    expect(file).not.toContain('old line');
  });
});

describe('which files come back, and in what order', () => {
  const write = (state: ReturnType<typeof createFileState>, id: string, path: string, content: string): void => {
    noteToolCall(state, { id, name: 'Write', input: { file_path: path, content } });
    noteToolResult(state, id, 'File created successfully', false);
  };

  it('moves an edited file to the most recent and applies the edit to the content the log showed', () => {
    const state = createFileState();
    write(state, 'a', '/p/deploy.sh', 'DHCP_RANGE_START=10\nNFS_ROOT=/srv');
    read(state, 'b', '/p/other.sh', '     1→echo other');
    noteToolCall(state, { id: 'e', name: 'Edit', input: { file_path: '/p/deploy.sh', old_string: 'NFS_ROOT=/srv', new_string: 'NFS_ROOT=/export' } });
    noteToolResult(state, 'e', 'The file /p/deploy.sh has been updated.', false);
    const [first, second] = restoreAfterCompaction(state);
    expect(first).toContain('"file_path":"/p/deploy.sh"');
    expect(first).toContain('DHCP_RANGE_START=10\nNFS_ROOT=/export');
    expect(second).toContain('"file_path":"/p/other.sh"');
  });

  it('leaves a failed edit, and an edit of a file the log never showed, out', () => {
    const state = createFileState();
    write(state, 'a', '/p/a.sh', 'A=1');
    noteToolCall(state, { id: 'e', name: 'MultiEdit', input: { file_path: '/p/a.sh', edits: [{ old_string: 'A=1', new_string: 'A=2' }] } });
    noteToolResult(state, 'e', '<tool_use_error>File has not been read yet.</tool_use_error>', true);
    noteToolCall(state, { id: 'u', name: 'Edit', input: { file_path: '/p/unseen.sh', old_string: 'x', new_string: 'y' } });
    noteToolResult(state, 'u', 'updated', false);
    const restored = restoreAfterCompaction(state);
    expect(restored).toHaveLength(1);
    expect(restored[0]).toContain('A=1');
  });

  it('rebuilds every file within the budget, the todo list first; at most five when the log records its boundary', () => {
    const many = (): ReturnType<typeof createFileState> => {
      const state = createFileState();
      for (let i = 1; i <= 8; i++) write(state, `w${i}`, `/p/f${i}.sh`, `F${i}=1`);
      state.todos = [{ content: 'ship', status: 'in_progress' }];
      return state;
    };
    const all = restoreAfterCompaction(many());
    expect(all).toHaveLength(9);
    expect(all[0]).toContain('todo list');
    expect(all[1]).toContain('/p/f8.sh');
    expect(all[8]).toContain('/p/f1.sh');
    const bounded = restoreAfterCompaction(many(), BOUNDED_MAX_FILES);
    expect(bounded).toHaveLength(1 + BOUNDED_MAX_FILES);
    expect(bounded[5]).toContain('/p/f4.sh');
  });
});
