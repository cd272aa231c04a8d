import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { loadProbeFile } from '../../src/probes/load.js';

const dir = 'fixtures/probes/load';

async function loadError(file: string): Promise<InputError> {
  const error: unknown = await loadProbeFile(`${dir}/${file}`).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof InputError)) throw new Error(`expected an InputError from ${file}, got ${String(error)}`);
  return error;
}

describe('loadProbeFile', () => {
  it('loads a JSON array, filling defaults', async () => {
    const probes = await loadProbeFile(`${dir}/valid.json`);
    expect(probes.map((p) => p.id)).toEqual(['port', 'absent-token']);
    expect(probes[0]?.ask).toEqual(['end', { step: 3 }]);
    expect(probes[1]).toMatchObject({ evidence: [], ask: ['end'], expected: { notInSession: true } });
  });

  it('loads YAML with {probes: [...]}', async () => {
    const probes = await loadProbeFile(`${dir}/valid.yaml`);
    expect(probes).toHaveLength(2);
    expect(probes[0]).toMatchObject({ id: 'config-file', kind: 'artifact', ask: ['end', 'after-compaction'], origin: 'hand' });
    expect(probes[1]?.expected).toEqual({ allOf: ['CI', 'no database'] });
  });

  it('loads JSONL of probes and probe events, skipping blank lines', async () => {
    const probes = await loadProbeFile(`${dir}/valid.jsonl`);
    expect(probes.map((p) => p.id)).toEqual(['failing-test', 'migration-var']);
    expect(probes[0]?.expected.regex).toBe('pool\\.test\\.ts');
  });

  it.each([
    ['invalid-field.json', 10, 'probes.3.expected', /anyOf, allOf, regex or notInSession/],
    ['invalid-kind.yaml', 6, 'probes.1.kind', /recall/],
    ['unknown-key.yaml', 7, 'probes.0.expected.exactly', /Unrecognized key/],
    ['invalid-line.jsonl', 2, 'extra', /Unrecognized key/],
    ['broken.jsonl', 2, undefined, /invalid JSON/],
    ['broken.yaml', 4, undefined, /not valid YAML/],
    ['duplicate.yaml', 3, 'probes.1.id', /duplicate probe id "same"/],
    ['wrong-root.json', 1, 'questions', /unknown key/],
  ])('rejects %s naming line %i and field %j', async (file, line, field, problem) => {
    const error = await loadError(file);
    expect(error.location.file).toBe(`${dir}/${file}`);
    expect(error.location.line).toBe(line);
    expect(error.location.field).toBe(field);
    expect(error.message).toMatch(problem);
    expect(error.message.startsWith(`${dir}/${file}:${line}`)).toBe(true);
    expect(error.exitCode).toBe(2);
  });

  it('reports a file it cannot read', async () => {
    const error = await loadError('missing.json');
    expect(error.message).toMatch(/cannot read probe file/);
  });
});
