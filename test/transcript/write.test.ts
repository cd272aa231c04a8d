import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTranscriptText, readTranscript } from '../../src/transcript/read.js';
import { generateSession } from '../../src/transcript/synthetic/generate.js';
import type { Transcript } from '../../src/transcript/types.js';
import { serializeEvent, serializeTranscript, writeTranscript } from '../../src/transcript/write.js';

const dir = mkdtempSync(join(tmpdir(), 'ctxbench-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const validFixture = fileURLToPath(new URL('../../fixtures/transcript/read/valid.ctx.jsonl', import.meta.url));

describe('writeTranscript', () => {
  it.each([
    ['gemini, timed', { seed: 3, timed: true }],
    ['openai', { seed: 4, dialect: 'openai' as const, contextWindow: 128_000 }],
  ])('round-trips a generated session (%s): read(write(t)) is t', async (_, options) => {
    const session = generateSession(options);
    const file = join(dir, 'session.ctx.jsonl');
    await writeTranscript(session, file);
    const back = await readTranscript(file);
    expect(back.header).toEqual(session.header);
    expect(back.events).toEqual(session.events);
    expect(back.skipped).toEqual([]);
    expect(serializeTranscript(back)).toBe(await readFile(file, 'utf8'));
  });

  it('round-trips the hand-written fixture with every event type', async () => {
    const original = await readTranscript(validFixture);
    const back = parseTranscriptText(serializeTranscript(original), 'again.ctx.jsonl');
    expect(back.header).toEqual(original.header);
    expect(back.events).toEqual(original.events);
  });
});

describe('serializeTranscript', () => {
  const transcript: Transcript = {
    header: { model: 'm', dialect: 'openai', id: 's', type: 'session', source: { licence: 'CC0', format: 'hand' } },
    events: [
      {
        usage: { output: 2, input: 1 },
        text: 'hi',
        role: 'assistant',
        id: 'a1',
        type: 'message',
        toolCalls: [{ args: { b: 1, a: 2 }, name: 'grep', id: 'c1' }],
      },
      { status: 'completed', type: 'task', id: 't1', title: 'T' },
    ],
    file: 'x',
    skipped: [{ line: 3, reason: 'not written' }],
    unknown: { foo: 1 },
  };

  it('writes the header first, one JSON object per line, and a trailing newline', () => {
    const text = serializeTranscript(transcript);
    expect(text.endsWith('}\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ type: 'session' });
  });

  it('orders keys the same way whatever order the objects were built in', () => {
    const lines = serializeTranscript(transcript).split('\n');
    expect(lines[0]).toBe('{"type":"session","id":"s","source":{"format":"hand","licence":"CC0"},"dialect":"openai","model":"m"}');
    // Tool arguments are the agent's data and keep their recorded order.
    expect(lines[1]).toBe(
      '{"type":"message","id":"a1","role":"assistant","text":"hi","toolCalls":[{"id":"c1","name":"grep","args":{"b":1,"a":2}}],"usage":{"input":1,"output":2}}',
    );
    expect(lines[2]).toBe('{"type":"task","id":"t1","status":"completed","title":"T"}');
  });

  it('omits undefined fields and load-time facts (file, skipped, unknown)', () => {
    const line = serializeEvent({ type: 'message', id: 'u', role: 'user', text: 'x', thinking: undefined });
    expect(line).toBe('{"type":"message","id":"u","role":"user","text":"x"}');
    const text = serializeTranscript(transcript);
    expect(text).not.toContain('not written');
    expect(text).not.toContain('"foo"');
  });

  it('orders probe fields, including the expectation', () => {
    const line = serializeEvent({
      type: 'probe',
      probe: { origin: 'hand', ask: ['end'], evidence: ['a1'], expected: { regex: 'x', anyOf: ['y'] }, question: 'q?', kind: 'recall', id: 'p' },
    });
    expect(line).toBe(
      '{"type":"probe","probe":{"id":"p","kind":"recall","question":"q?","expected":{"anyOf":["y"],"regex":"x"},"evidence":["a1"],"ask":["end"],"origin":"hand"}}',
    );
  });
});
