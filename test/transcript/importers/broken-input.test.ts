import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/errors.js';
import { importTranscript } from '../../../src/transcript/importers/index.js';
import { expectCanonical, messagesOf, writeTemp } from './helpers.js';
import { SAMPLES } from './samples.js';

type Format = keyof typeof SAMPLES;

const LINE_FORMATS: Format[] = ['claude-code', 'codex', 'gemini-cli'];
const DOCUMENT_FORMATS: Format[] = ['mini-swe-agent', 'swe-agent', 'openhands', 'openai-messages', 'gemini-contents'];

async function importError(file: string, from: Format): Promise<InputError> {
  const error: unknown = await importTranscript(file, { from }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe.each(LINE_FORMATS)('%s: broken lines', (from) => {
  const { name, text } = SAMPLES[from];
  const lines = text.trimEnd().split('\n');
  const full = async (): Promise<number> => messagesOf(await importTranscript(writeTemp(name, text), { from })).length;

  it('names the line of a bad JSON line, and skips and counts it under lenient', async () => {
    const broken = [...lines.slice(0, 2), '{"type": "user", "message": ', ...lines.slice(2)].join('\n');
    const file = writeTemp(name, `${broken}\n`);
    const error = await importError(file, from);
    expect(error.location).toMatchObject({ file, line: 3 });
    expect(error.message).toContain(`${file}:3`);
    expect(error.message).toMatch(/invalid JSON/);
    expect(error.message).toMatch(/--lenient skips such lines and counts them\)$/);

    const lenient = await importTranscript(file, { from, lenient: true });
    expect(lenient.skipped).toEqual([{ line: 3, reason: expect.stringMatching(/invalid JSON/) }]);
    expect(messagesOf(lenient)).toHaveLength(await full());
    expectCanonical(lenient);
  });

  it('reports a last line cut off mid-write as truncated', async () => {
    const last = lines.at(-1)!;
    const cut = [...lines.slice(0, -1), last.slice(0, Math.floor(last.length / 2))].join('\n');
    const file = writeTemp(name, cut);
    const error = await importError(file, from);
    expect(error.location.line).toBe(lines.length);
    expect(error.message).toMatch(/truncated last line/);

    const lenient = await importTranscript(file, { from, lenient: true });
    expect(lenient.skipped).toEqual([{ line: lines.length, reason: expect.stringMatching(/^truncated last line/) }]);
    expect(messagesOf(lenient).length).toBeGreaterThan(0);
    expectCanonical(lenient);
  });

  it('rejects a line that is JSON but not an object', async () => {
    const file = writeTemp(name, [...lines.slice(0, 1), '[1, 2]', ...lines.slice(1)].join('\n'));
    expect((await importError(file, from)).location.line).toBe(2);
  });
});

describe.each(DOCUMENT_FORMATS)('%s: a broken document', (from) => {
  const { name, text } = SAMPLES[from];

  it('names the line of a JSON error inside the document, and keeps the other entries under lenient', async () => {
    const lines = text.split('\n');
    const bad = lines.findIndex((line) => /"(role|source)": "user"/.test(line));
    lines[bad] = lines[bad]!.replace(/": "user"/, '": user"');
    const file = writeTemp(name, lines.join('\n'));
    const error = await importError(file, from);
    expect(error.location.line).toBe(bad + 1);
    expect(error.message).toContain(`${file}:${bad + 1}`);

    const lenient = await importTranscript(file, { from, lenient: true });
    expect(lenient.skipped).toHaveLength(1);
    expect(lenient.skipped[0]!.line).toBeLessThanOrEqual(bad + 1);
    expect(lenient.skipped[0]!.reason).toMatch(/broken entry/);
    expect(messagesOf(lenient).length).toBeGreaterThan(0);
  });

  it('fails on a document cut off mid-write, and salvages its whole entries under lenient', async () => {
    const complete = messagesOf(await importTranscript(writeTemp(name, text), { from })).length;
    // Cut inside the last entry the model wrote, so that at least one message is lost.
    const cut = [...text.matchAll(/"(role|source)": "(assistant|model|agent)"/g)].at(-1)!.index;
    const file = writeTemp(name, text.slice(0, cut + 10));
    const error = await importError(file, from);
    expect(error.location.line).toBeGreaterThan(1);
    expect(error.message).toMatch(/invalid JSON/);

    const lenient = await importTranscript(file, { from, lenient: true });
    expect(lenient.skipped.length).toBeGreaterThan(0);
    expect(messagesOf(lenient).length).toBeLessThan(complete);
    expectCanonical(lenient);
  });
});

describe('records of the wrong shape', () => {
  it('names the field (claude-code: a tool_use without its id)', async () => {
    const lines = SAMPLES['claude-code'].text.trimEnd().split('\n');
    lines[4] = lines[4]!.replace('"id":"toolu_1",', '');
    const file = writeTemp('session.jsonl', lines.join('\n'));
    const error = await importError(file, 'claude-code');
    expect(error.location).toEqual({ file, line: 5, field: 'message.content.0.id' });

    const lenient = await importTranscript(file, { from: 'claude-code', lenient: true });
    expect(lenient.skipped).toEqual([{ line: 5, reason: expect.stringMatching(/^field message\.content\.0\.id: /) }]);
    // The result of the skipped call is kept, as a user message: no provider accepts a lone tool result.
    expect(lenient.unknown['tool result without a call']).toBe(1);
    expectCanonical(lenient);
  });

  it('names the entry of a document (openai-messages: an unknown role)', async () => {
    const text = SAMPLES['openai-messages'].text.replace('"role": "tool"', '"role": "robot"');
    const file = writeTemp('messages.json', text);
    const error = await importError(file, 'openai-messages');
    // The entry's `{` is on the line before its role (pretty-printed).
    const roleLine = text.split('\n').findIndex((line) => line.includes('"robot"')) + 1;
    expect(error.location).toEqual({ file, line: roleLine - 1, field: '3.role' });
  });

  it('fails on a file that does not exist, naming it', async () => {
    const error = await importError('fixtures/real/no-such-file.jsonl', 'codex');
    expect(error.location.file).toBe('fixtures/real/no-such-file.jsonl');
  });
});
