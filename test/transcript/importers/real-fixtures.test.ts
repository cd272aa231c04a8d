import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, importTranscript } from '../../../src/transcript/importers/index.js';
import { parseTranscriptText } from '../../../src/transcript/read.js';
import { serializeTranscript } from '../../../src/transcript/write.js';
import { expectCanonical, messagesOf } from './helpers.js';

const ROOT = 'fixtures/real';

/** Folders named for what their logs hold rather than for the format they are in. */
const FORMAT_OF_FOLDER: Record<string, string> = {
  'claude-code-long': 'claude-code',
  'claude-code-compactions': 'claude-code',
  'codex-patches': 'codex',
};

/** Every recorded log under fixtures/real/<format>/ (the expected files are another tool's output). */

const files = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    readdirSync(join(ROOT, dir.name))
      .filter((name) => !name.endsWith('.expected.json'))
      .map((name) => ({ format: FORMAT_OF_FOLDER[dir.name] ?? dir.name, file: join(ROOT, dir.name, name) })),
  );

/** What each real log holds, counted by hand from the source files (see the report of issue 5). */
const EXPECTED: Record<string, { messages: number; steps: number; toolCalls: number; unknown: Record<string, number> }> = {
  'claude-code/coverage-test-fix.jsonl': { messages: 30, steps: 14, toolCalls: 13, unknown: { 'queue-operation': 1 } },
  'claude-code/hello-world-script.jsonl': { messages: 8, steps: 4, toolCalls: 2, unknown: { 'queue-operation': 1 } },
  'claude-code/stop-hook-uncommitted-changes.jsonl': { messages: 8, steps: 4, toolCalls: 2, unknown: { 'queue-operation': 1 } },
  'claude-code-long/vsla-0a725fb5.jsonl': {
    messages: 403,
    steps: 201,
    toolCalls: 194,
    unknown: { system: 1, 'user (sidechain)': 16, 'assistant (sidechain)': 26 },
  },
  'claude-code-long/vsla-5f8cbb78.jsonl': { messages: 240, steps: 119, toolCalls: 118, unknown: { 'user (sidechain)': 93, 'assistant (sidechain)': 135 } },
  'claude-code-compactions/mclaude-97b0ffde.jsonl': {
    messages: 125,
    steps: 62,
    toolCalls: 58,
    unknown: { 'file-history-snapshot': 7, 'queue-operation': 2, 'system:local_command': 2 },
  },
  'claude-code-compactions/mclaude-c7d2069e.jsonl': {
    // Line 876, the result of one call, cannot be read (a redaction broke its JSON): a stand-in answers the call.
    messages: 587,
    steps: 282,
    toolCalls: 287,
    unknown: { 'file-history-snapshot': 34, 'queue-operation': 11, 'assistant (synthetic)': 1, 'tool call whose result was not recorded': 1 },
  },
  'claude-code-compactions/swordintel-0c45b0a6.jsonl': {
    messages: 812,
    steps: 395,
    toolCalls: 369,
    unknown: { 'user (sidechain)': 7, 'assistant (sidechain)': 7, system: 1 },
  },
  'claude-code-compactions/swordintel-54bc4295.jsonl': {
    messages: 294,
    steps: 144,
    toolCalls: 127,
    unknown: { 'assistant (sidechain)': 36, 'assistant (synthetic)': 2, system: 3, 'user (sidechain)': 26 },
  },
  'claude-code-long/swordintel-32c5211e.jsonl': { messages: 346, steps: 169, toolCalls: 166, unknown: { system: 1 } },
  'claude-code-compactions/swordintel-b260c379.jsonl': { messages: 259, steps: 127, toolCalls: 119, unknown: { 'assistant (synthetic)': 1, system: 1 } },
  'claude-code-compactions/swordintel-e95a823a.jsonl': { messages: 430, steps: 211, toolCalls: 204, unknown: { 'assistant (synthetic)': 1, system: 1 } },
  'claude-code/vibecoding-session.jsonl': { messages: 68, steps: 32, toolCalls: 31, unknown: { 'file-history-delta': 1 } },
  'codex-patches/moonmind-019a7ae6.jsonl': { messages: 208, steps: 102, toolCalls: 97, unknown: { 'event_msg:turn_aborted': 1 } },
  'codex-patches/moonmind-019a7fa9.jsonl': { messages: 163, steps: 80, toolCalls: 78, unknown: {} },
  'codex/vibecoding-session.jsonl': { messages: 40, steps: 19, toolCalls: 19, unknown: { 'event_msg:patch_apply_end': 2 } },
  'gemini-cli/vibecoding-session.jsonl': { messages: 21, steps: 6, toolCalls: 12, unknown: { info: 2 } },
  'mini-swe-agent/astropy__astropy-8707.traj.json': { messages: 116, steps: 57, toolCalls: 55, unknown: {} },
  'mini-swe-agent/django__django-10999.traj.json': { messages: 38, steps: 18, toolCalls: 18, unknown: {} },
  'mini-swe-agent/django__django-11138.traj.json': { messages: 232, steps: 115, toolCalls: 100, unknown: {} },
  'mini-swe-agent/django__django-11163.traj.json': { messages: 28, steps: 13, toolCalls: 13, unknown: {} },
  'mini-swe-agent/django__django-11451.traj.json': { messages: 64, steps: 31, toolCalls: 29, unknown: {} },
  'mini-swe-agent/django__django-11880.traj.json': { messages: 66, steps: 32, toolCalls: 31, unknown: {} },
  'mini-swe-agent/django__django-12050.traj.json': { messages: 68, steps: 33, toolCalls: 33, unknown: {} },
  'mini-swe-agent/django__django-13158.traj.json': { messages: 90, steps: 44, toolCalls: 44, unknown: {} },
  'mini-swe-agent/django__django-15380.traj.json': { messages: 98, steps: 48, toolCalls: 41, unknown: {} },
  'mini-swe-agent/django__django-15499.traj.json': { messages: 116, steps: 57, toolCalls: 54, unknown: {} },
  'mini-swe-agent/django__django-15561.traj.json': { messages: 66, steps: 32, toolCalls: 31, unknown: {} },
  'mini-swe-agent/django__django-15957.traj.json': { messages: 100, steps: 49, toolCalls: 49, unknown: {} },
  'mini-swe-agent/pydata__xarray-3677.traj.json': { messages: 84, steps: 41, toolCalls: 40, unknown: {} },
  'mini-swe-agent/pydata__xarray-6744.traj.json': { messages: 62, steps: 30, toolCalls: 29, unknown: {} },
  'mini-swe-agent/pylint-dev__pylint-4551.traj.json': { messages: 80, steps: 39, toolCalls: 36, unknown: {} },
  'mini-swe-agent/pytest-dev__pytest-6197.traj.json': { messages: 186, steps: 92, toolCalls: 91, unknown: {} },
  'mini-swe-agent/scikit-learn__scikit-learn-11310.traj.json': { messages: 78, steps: 38, toolCalls: 37, unknown: {} },
  'mini-swe-agent/scikit-learn__scikit-learn-14141.traj.json': { messages: 42, steps: 20, toolCalls: 20, unknown: {} },
  'mini-swe-agent/scikit-learn__scikit-learn-25931.traj.json': { messages: 60, steps: 29, toolCalls: 29, unknown: {} },
  'mini-swe-agent/sphinx-doc__sphinx-10614.traj.json': { messages: 140, steps: 69, toolCalls: 63, unknown: {} },
  'mini-swe-agent/sphinx-doc__sphinx-9673.traj.json': { messages: 100, steps: 49, toolCalls: 48, unknown: {} },
  'mini-swe-agent/sphinx-doc__sphinx-9711.traj.json': { messages: 76, steps: 37, toolCalls: 37, unknown: {} },
  'mini-swe-agent/sympy__sympy-15976.traj.json': { messages: 94, steps: 46, toolCalls: 42, unknown: {} },
  'openhands/basic.json': { messages: 4, steps: 2, toolCalls: 2, unknown: {} },
  'swe-agent/marshmallow-1867.function-calling.traj': { messages: 24, steps: 11, toolCalls: 11, unknown: {} },
};

/** Lines damaged in the source itself (a real log as it was published): a lenient import skips them, a strict one names them. */
const DAMAGED: Record<string, { line: number; reason: string }[]> = {
  'claude-code-compactions/mclaude-c7d2069e.jsonl': [{ line: 876, reason: "invalid JSON: Expected ',' or '}' after property value in JSON at position 5912" }],
};

describe('real agent logs (fixtures/real)', () => {
  it('covers every file there', () => {
    expect(files.map(({ file }) => file.slice(ROOT.length + 1)).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(DAMAGED))('fails a strict import of %s at its damaged line, naming file and line', async (name, damaged) => {
    const file = join(ROOT, name);
    await expect(importTranscript(file)).rejects.toThrow(`${file}:${damaged[0]?.line ?? 0}: invalid JSON`);
  });

  describe.each(files)('$file', ({ format, file }) => {
    it(`is detected as ${format}`, async () => {
      expect((await detectFormat(file))?.name).toBe(format);
    });

    const damaged = DAMAGED[file.slice(ROOT.length + 1)] ?? [];
    const lenient = damaged.length > 0;

    it('imports to a canonical transcript with paired tool calls and unique ids', async () => {
      const transcript = await importTranscript(file, { lenient });
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
      expect(transcript.skipped).toEqual(damaged);
      expectCanonical(transcript);
    });

    it('writes canonical JSONL that reads back the same', async () => {
      const transcript = await importTranscript(file, { lenient });
      const read = parseTranscriptText(serializeTranscript(transcript), 'imported.ctx.jsonl');
      expect(read.skipped).toEqual([]);
      expect({ header: read.header, events: read.events }).toEqual({ header: transcript.header, events: transcript.events });
    });

    it('imports the same way twice (ids derive from the source, not from chance)', async () => {
      expect(await importTranscript(file, { lenient })).toEqual(await importTranscript(file, { lenient }));
    });
  });
});
