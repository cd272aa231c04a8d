import { describe, expect, it } from 'vitest';
import { createFileState, noteToolCall, noteToolResult, restoreAfterCompaction } from '../../src/transcript/claude-restored.js';

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
