import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareScenarios } from '../../src/run/run-suite.js';
import { InputError } from '../../src/errors.js';
import { loadScenarioProbes } from '../../src/probes/load.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { resolveScenario } from '../../src/scenario/resolve.js';
import { readTranscript } from '../../src/transcript/read.js';
import { writeFiles } from '../helpers/temp.js';

/** A scenario's probes: inline in its transcript, in a side file, generated at load time. */

const FIXTURE = join(process.cwd(), 'fixtures/probes/session.ctx.jsonl');
const SIDE = JSON.stringify({ probes: [{ id: 'side-1', kind: 'recall', question: 'Which port?', expected: { anyOf: ['8437'] }, evidence: ['m04'] }] });

function scenario(probes: string | undefined): string {
  const lines = ['name: probes', `transcript: ${JSON.stringify(FIXTURE)}`, 'provider: openai', 'strategies: [full]'];
  if (probes !== undefined) lines.push(`probes: ${probes}`);
  return join(writeFiles({ 's.yaml': lines.join('\n'), 'side.json': SIDE }), 's.yaml');
}

async function resolved(probes: string | undefined) {
  const file = scenario(probes);
  const loaded = await loadScenarioFile(file);
  const transcript = await readTranscript(FIXTURE);
  return { scenario: resolveScenario(loaded, transcript, {}), transcript };
}

describe('scenario probes', () => {
  it('resolves `probes: generate`, a side file, and both', async () => {
    expect((await resolved('generate')).scenario).toMatchObject({ probesGenerate: {} });
    expect((await resolved('side.json')).scenario.probesFile).toMatch(/side\.json$/);
    const both = (await resolved('{ file: side.json, generate: { max: 5, seed: 3 } }')).scenario;
    expect(both.probesGenerate).toEqual({ max: 5, seed: 3 });
    expect(both.probesFile).toMatch(/side\.json$/);
    expect((await resolved(undefined)).scenario).not.toHaveProperty('probesGenerate');
  });

  it('rejects an unknown generation option, naming the field', async () => {
    await expect(loadScenarioFile(scenario('{ generate: { most: 5 } }'))).rejects.toThrow(/probes/);
  });

  it('loads the side file and generates probes from the transcript', async () => {
    const { scenario: s, transcript } = await resolved('{ file: side.json, generate: { max: 5 } }');
    const probes = await loadScenarioProbes(s, transcript);
    expect(probes[0]?.id).toBe('side-1');
    expect(probes.slice(1).map((p) => p.origin)).toEqual(Array(5).fill('generated'));
  });

  it('rejects a probe id given twice', async () => {
    const { scenario: s, transcript } = await resolved('side.json');
    const twice = {
      ...transcript,
      events: [
        ...transcript.events,
        {
          type: 'probe' as const,
          probe: { id: 'side-1', kind: 'recall' as const, question: 'q', expected: { anyOf: ['x'] }, evidence: [], ask: ['end' as const] },
        },
      ],
    };
    await expect(loadScenarioProbes(s, twice)).rejects.toThrow(InputError);
  });

  it('prepares the probe set with the scenario, or none when there are no probes', async () => {
    const [withProbes] = await prepareScenarios([scenario('generate')]);
    expect(withProbes?.probes?.probes.length).toBeGreaterThan(5);
    const [without] = await prepareScenarios([scenario(undefined)]);
    expect(without?.probes).toBeUndefined();
  });
});
