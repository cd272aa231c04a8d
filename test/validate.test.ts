import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from '../src/errors.js';
import { describeSchemaError, parseInput, readDocument } from '../src/validate.js';

const schema = z.strictObject({ name: z.string(), limits: z.strictObject({ tpm: z.number().min(1) }).optional() });

function errorOf(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('describeSchemaError', () => {
  it('names an unknown key itself, before a missing field it may be the misspelling of', () => {
    const parsed = schema.safeParse({ nmae: 'a' });
    expect(parsed.success).toBe(false);
    if (!parsed.success)
      expect(describeSchemaError(parsed.error)).toMatchObject({ path: ['nmae'], field: 'nmae', message: expect.stringMatching(/Unrecognized key/) });
  });

  it('gives the nested path of the first problem', () => {
    const parsed = schema.safeParse({ name: 'a', limits: { tpm: 0 } });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(describeSchemaError(parsed.error).field).toBe('limits.tpm');
  });
});

describe('parseInput', () => {
  it('returns the parsed value', () => {
    expect(parseInput(schema, { name: 'a' }, { file: 'f.json' })).toEqual({ name: 'a' });
  });

  it('names the file, the line of a JSONL record, the field under the value’s own path, exit code 2', () => {
    const error = errorOf(() => parseInput(schema, { name: 3 }, { file: 's.jsonl', line: 7, at: ['probe'], what: 'not a probe' }));
    expect(error.exitCode).toBe(2);
    expect(error.location).toEqual({ file: 's.jsonl', line: 7, field: 'probe.name' });
    expect(error.message).toMatch(/^s\.jsonl:7 \(field probe\.name\): not a probe: Invalid input: expected string/);
  });

  it('finds the line of the field in a YAML document', () => {
    const doc = readDocument('name: a\nlimits:\n  tpm: 0\n', 'c.yaml');
    const error = errorOf(() => parseInput(schema, doc.data, { file: 'c.yaml', lineOf: doc.lineOf }));
    expect(error.message).toMatch(/^c\.yaml:3 \(field limits\.tpm\): Too small/);
  });

  it('names the line of a YAML syntax error', () => {
    expect(errorOf(() => readDocument('name: a\nlimits: [\n', 'c.yaml')).location).toMatchObject({ file: 'c.yaml', line: expect.any(Number) });
  });
});
