import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, importTranscript } from '../../../src/transcript/importers/index.js';
import { parseTranscriptText } from '../../../src/transcript/read.js';
import { serializeTranscript } from '../../../src/transcript/write.js';
import { expectCanonical, messagesOf } from './helpers.js';

const ROOT = 'fixtures/real';

/** Every recorded log under fixtures/real/<format>/ (the expected files are another tool's output). */
const files = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    readdirSync(join(ROOT, dir.name))
      .filter((name) => !name.endsWith('.expected.json'))
      .map((name) => ({ format: dir.name, file: join(ROOT, dir.name, name) })),
  );

/** What each real log holds, counted by hand from the source files (see the report of issue 5). */
const EXPECTED: Record<string, { messages: number; steps: number; toolCalls: number; unknown: Record<string, number> }> = {
  'claude-code/coverage-test-fix.jsonl': { messages: 30, steps: 14, toolCalls: 13, unknown: { 'queue-operation': 1 } },
  'claude-code/hello-world-script.jsonl': { messages: 8, steps: 4, toolCalls: 2, unknown: { 'queue-operation': 1 } },
  'claude-code/stop-hook-uncommitted-changes.jsonl': { messages: 8, steps: 4, toolCalls: 2, unknown: { 'queue-operation': 1 } },
  'claude-code/vibecoding-session.jsonl': { messages: 75, steps: 32, toolCalls: 31, unknown: { 'file-history-delta': 1 } },
  'codex/vibecoding-session.jsonl': { messages: 40, steps: 19, toolCalls: 19, unknown: { 'event_msg:patch_apply_end': 2 } },
  'gemini-cli/vibecoding-session.jsonl': { messages: 21, steps: 6, toolCalls: 12, unknown: { info: 2 } },
  'openhands/basic.json': { messages: 4, steps: 2, toolCalls: 2, unknown: {} },
  'swe-agent/marshmallow-1867.function-calling.traj': { messages: 24, steps: 11, toolCalls: 11, unknown: {} },
};

describe('real agent logs (fixtures/real)', () => {
  it('covers every file there', () => {
    expect(files.map(({ file }) => file.slice(ROOT.length + 1)).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  describe.each(files)('$file', ({ format, file }) => {
    it(`is detected as ${format}`, async () => {
      expect((await detectFormat(file))?.name).toBe(format);
    });

    it('imports to a canonical transcript with paired tool calls and unique ids', async () => {
      const transcript = await importTranscript(file);
      const messages = messagesOf(transcript);
      const steps = messages.filter((m) => m.role === 'assistant');
      const expected = EXPECTED[file.slice(ROOT.length + 1)];
      expect({
        messages: messages.length,
        steps: steps.length,
        toolCalls: steps.reduce((n, m) => n + (m.toolCalls?.length ?? 0), 0),
        unknown: transcript.unknown,
      }).toEqual(expected);
      expect(transcript.header.source).toEqual({ format, file: file.split('/').at(-1) });
      expect(transcript.skipped).toEqual([]);
      expectCanonical(transcript);
    });

    it('writes canonical JSONL that reads back the same', async () => {
      const transcript = await importTranscript(file);
      const read = parseTranscriptText(serializeTranscript(transcript), 'imported.ctx.jsonl');
      expect(read.skipped).toEqual([]);
      expect({ header: read.header, events: read.events }).toEqual({ header: transcript.header, events: transcript.events });
    });

    it('imports the same way twice (ids derive from the source, not from chance)', async () => {
      expect(await importTranscript(file)).toEqual(await importTranscript(file));
    });
  });
});
