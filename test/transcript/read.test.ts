import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { parseTranscriptText, readTranscript } from '../../src/transcript/read.js';
import { countSteps } from '../../src/transcript/structure.js';
import { generateSession } from '../../src/transcript/synthetic/generate.js';
import { writeTranscript } from '../../src/transcript/write.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../../fixtures/transcript/read/${name}`, import.meta.url));

async function readError(file: string, options: { lenient?: boolean } = {}): Promise<InputError> {
  const error = await readTranscript(file, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe('readTranscript', () => {
  it('reads a valid transcript, skipping blank lines and keeping line order', async () => {
    const transcript = await readTranscript(fixture('valid.ctx.jsonl'));
    expect(transcript.header).toMatchObject({ type: 'session', id: 'fixture-valid', dialect: 'openai', contextWindow: 128000 });
    expect(transcript.events.map((e) => e.type)).toEqual([
      'message',
      'message',
      'task',
      'message',
      'message',
      'message',
      'task',
      'control',
      'control',
      'compaction',
      'probe',
    ]);
    expect(transcript.skipped).toEqual([]);
    expect(transcript.unknown).toEqual({});
    expect(transcript.file).toBe(fixture('valid.ctx.jsonl'));
  });

  it('gives the same transcript from text as from the file', async () => {
    const file = fixture('valid.ctx.jsonl');
    const fromText = parseTranscriptText(await readFile(file, 'utf8'), file);
    expect(fromText).toEqual(await readTranscript(file));
  });

  // Each malformed fixture: the line and field the error must name.
  const malformed: [file: string, line: number, field: string | undefined, problem: RegExp][] = [
    ['bad-json.ctx.jsonl', 3, undefined, /invalid JSON/],
    ['missing-field.ctx.jsonl', 3, 'text', /expected string/],
    ['wrong-enum.ctx.jsonl', 3, 'role', /system/],
    ['unknown-call.ctx.jsonl', 4, 'toolCallId', /no earlier tool call has id "call_9"/],
    ['duplicate-id.ctx.jsonl', 4, 'id', /duplicate message id "u1" \(first on line 3\)/],
    ['missing-header.ctx.jsonl', 1, 'type', /session header/],
    ['tool-call-name.ctx.jsonl', 3, 'toolCalls.0.name', /expected string/],
    ['tool-without-call-id.ctx.jsonl', 3, 'toolCallId', /needs toolCallId/],
    ['unknown-type.ctx.jsonl', 3, 'type', /unknown event type "note"/],
    ['drop-group-without-group.ctx.jsonl', 3, 'group', /needs group/],
    ['switch-dialect-without-dialect.ctx.jsonl', 3, 'dialect', /needs dialect/],
    ['unknown-key.ctx.jsonl', 3, 'content', /Unrecognized key/],
    ['header-without-dialect.ctx.jsonl', 1, 'dialect', /./],
    ['probe-wrong-kind.ctx.jsonl', 3, 'probe.kind', /recall/],
    ['second-header.ctx.jsonl', 3, 'type', /second session header/],
    // Blank lines count: the error names the line an editor shows (CRLF endings too).
    ['blank-lines-crlf.ctx.jsonl', 5, 'text', /expected string/],
  ];

  it.each(malformed)('%s fails at line %i naming field %s', async (name, line, field, problem) => {
    const file = fixture(name);
    const error = await readError(file);
    expect(error.location).toEqual({ file, line, ...(field === undefined ? {} : { field }) });
    expect(error.message).toContain(`${file}:${line}`);
    if (field !== undefined) expect(error.message).toContain(`(field ${field})`);
    expect(error.message).toMatch(problem);
    expect(error.exitCode).toBe(2);
  });

  it.each(malformed)('parseTranscriptText reports %s at line %i too', async (name, line, field) => {
    const file = fixture(name);
    const error = (() => {
      try {
        parseTranscriptText(readFileSync(file, 'utf8'), file);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).location).toEqual({ file, line, ...(field === undefined ? {} : { field }) });
  });

  it('fails on a file with no header line at all', async () => {
    const error = await readError(fixture('empty.ctx.jsonl'));
    expect(error.message).toMatch(/no session header/);
  });

  it('fails with an InputError when the file does not exist', async () => {
    const error = await readError(fixture('absent.ctx.jsonl'));
    expect(error.message).toContain('absent.ctx.jsonl');
  });

  it('fails with an InputError when the path is a directory', async () => {
    const error = await readError(fileURLToPath(new URL('../../fixtures/transcript/read/', import.meta.url)));
    expect(error.message).toMatch(/the transcript is a folder, not a regular file/);
  });

  it('skips and records invalid lines when lenient', async () => {
    const transcript = await readTranscript(fixture('lenient.ctx.jsonl'), { lenient: true });
    expect(transcript.events.map((e) => (e.type === 'message' ? e.id : e.type))).toEqual(['s1', 'u1', 'a2']);
    expect(transcript.skipped.map((s) => s.line)).toEqual([4, 5, 6, 7]);
    expect(transcript.skipped[0]?.reason).toMatch(/invalid JSON/);
    // The call of line 4 was skipped, so its result has no call to answer.
    expect(transcript.skipped[1]?.reason).toMatch(/^field toolCallId: /);
    expect(transcript.skipped[2]?.reason).toMatch(/^field id: duplicate/);
    expect(transcript.skipped[3]?.reason).toMatch(/^field status: /);
  });

  it('is strict by default on the same file', async () => {
    const error = await readError(fixture('lenient.ctx.jsonl'));
    expect(error.location.line).toBe(4);
  });

  it.each(['missing-header.ctx.jsonl', 'header-without-dialect.ctx.jsonl', 'empty.ctx.jsonl'])(
    'keeps a broken header fatal when lenient (%s)',
    async (name) => {
      await readError(fixture(name), { lenient: true });
    },
  );

  describe('a large file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxbench-read-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('streams a ~20 MB transcript and keeps every event', async () => {
      const session = generateSession({ steps: 700, toolOutputTokens: 6000, seed: 7 });
      const file = join(dir, 'large.ctx.jsonl');
      await writeTranscript(session, file);
      const transcript = await readTranscript(file);
      const { size } = statSync(file);
      expect(size).toBeGreaterThan(15_000_000);
      expect(transcript.events).toHaveLength(session.events.length);
      expect(countSteps(transcript.events)).toBe(700);
      expect(transcript.events.filter((e) => e.type === 'probe')).toHaveLength(6);
    });
  });
});
