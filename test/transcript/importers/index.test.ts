import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InputError, UsageError } from '../../../src/errors.js';
import { detectFormat, getImporter, importTranscript, importerNames, importers } from '../../../src/transcript/importers/index.js';
import { readHead } from '../../../src/transcript/importers/shared/lines.js';
import { writeTemp } from './helpers.js';
import { SAMPLES } from './samples.js';

describe('the importer registry', () => {
  const files = readdirSync('src/transcript/importers').filter((name) => name.endsWith('.ts') && !['index.ts', 'types.ts'].includes(name));

  it('registers every importer file under its file name, with a description', () => {
    expect(importerNames().sort()).toEqual(files.map((name) => name.replace(/\.ts$/, '')).sort());
    for (const [name, importer] of Object.entries(importers)) {
      expect(importer.name).toBe(name);
      expect(importer.description).not.toBe('');
    }
  });

  it('has a sample of every format, each detected as its own', async () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(importerNames().sort());
    for (const [format, { name, text }] of Object.entries(SAMPLES)) {
      expect((await detectFormat(writeTemp(name, text)))?.name, format).toBe(format);
    }
  });

  it('fails on an unknown format name with the list of known ones', async () => {
    expect(() => getImporter('aider')).toThrow(UsageError);
    await expect(importTranscript('fixtures/real/codex/vibecoding-session.jsonl', { from: 'aider' })).rejects.toThrow(
      `unknown transcript format "aider"; known formats: ${importerNames().join(', ')}`,
    );
  });

  it('fails on a file of no known format, naming the file', async () => {
    const file = writeTemp('notes.txt', 'just some notes\nnothing to see\n');
    const error: unknown = await importTranscript(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).location).toEqual({ file });
    expect((error as InputError).message).toContain('--from');
  });

  it('lets --from override detection', async () => {
    const file = writeTemp('log.txt', SAMPLES.codex.text);
    expect((await importTranscript(file, { from: 'codex' })).header.source).toEqual({ format: 'codex', file: 'log.txt' });
  });

  it('detects from a bounded head of the file, not the whole of it', async () => {
    const file = writeTemp('long.jsonl', `${SAMPLES.codex.text}${'{"filler": true}\n'.repeat(100)}{"never": "read"}\n`);
    const head = await readHead(file);
    expect(head).toHaveLength(40);
    expect(head.join('\n')).not.toContain('never');
    expect((await detectFormat(file))?.name).toBe('codex');
  });
});
