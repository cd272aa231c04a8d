import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareScenarios } from '../../src/run/run-suite.js';
import { completeProbes } from '../../src/run/prepare.js';
import { writeFiles } from '../helpers/temp.js';

/**
 * Generated probes left for later (`deferGenerated`, what runSuite does while its first units
 * run): completed, a scenario is the one an eager preparation gives, for one transcript and for a
 * folder of logs; a scenario whose own probe ids could clash with generated ones is not deferred,
 * so that the clash stops the run before anything runs.
 */

const root = join(import.meta.dirname, '../..');

function suite(): string {
  const dir = writeFiles({
    'one.yaml': ['name: one', `transcript: ${join(root, 'fixtures/real/claude-code/vibecoding-session.jsonl')}`, 'probes: generate', 'strategies: [full]'].join(
      '\n',
    ),
    'logs.yaml': ['name: logs', 'transcript: logs/', 'probes: { generate: { max: 3 } }', 'strategies: [full]'].join('\n'),
  });
  mkdirSync(join(dir, 'logs'));
  for (const log of ['django__django-10999', 'django__django-11163']) {
    copyFileSync(join(root, `fixtures/real/mini-swe-agent/${log}.traj.json`), join(dir, 'logs', `${log}.traj.json`));
  }
  return dir;
}

describe('prepareScenarios with deferGenerated', () => {
  it('leaves generated probes for completeProbes, which makes the same scenarios an eager preparation makes', async () => {
    const dir = suite();
    const files = [join(dir, 'logs.yaml'), join(dir, 'one.yaml')];
    const eager = await prepareScenarios(files);
    const deferred = await prepareScenarios(files, {}, { deferGenerated: true });
    expect(eager.map((p) => p.scenario.name)).toEqual(['logs', 'one']);
    expect(deferred.every((p) => p.probes === undefined && (p.logs ?? []).every((log) => log.probes === undefined))).toBe(true);
    // Asked twice at once, the probes are made once: both calls wait for the same work.
    await Promise.all([...deferred.map(completeProbes), ...deferred.map(completeProbes)]);
    expect(deferred).toEqual(eager);
    expect(eager[0]?.logs?.every((log) => (log.probes?.probes.length ?? 0) > 0)).toBe(true);
    expect(eager[1]?.probes?.probes.length).toBeGreaterThan(0);
  });

  it('generates at once for a scenario whose probe file has an id of the generated form, and refuses the clash', async () => {
    const dir = writeFiles({
      's.yaml': [
        'name: s',
        `transcript: ${join(root, 'fixtures/real/claude-code/vibecoding-session.jsonl')}`,
        'probes: { file: p.yaml, generate: true }',
        'strategies: [full]',
      ].join('\n'),
      'p.yaml': ['- id: gen-recall-1', '  kind: recall', '  question: Which file?', '  expected: { anyOf: [go.mod] }', '  ask: [end]'].join('\n'),
    });
    await expect(prepareScenarios([join(dir, 's.yaml')], {}, { deferGenerated: true })).rejects.toThrow(/probe id "gen-recall-1" is given twice/);
  });
});

describe('a folder scenario with `format:`', () => {
  function folder(format: string): string {
    const dir = writeFiles({ 'logs.yaml': ['name: logs', 'transcript: logs/', `format: ${format}`, 'strategies: [full]'].join('\n') });
    mkdirSync(join(dir, 'logs'));
    // Real rollouts under names that say nothing of their format.
    copyFileSync(join(root, 'fixtures/real/codex/vibecoding-session.jsonl'), join(dir, 'logs', 'a.log'));
    copyFileSync(join(root, 'fixtures/real/codex-patches/moonmind-019a7fa9.jsonl'), join(dir, 'logs', 'b.log'));
    return join(dir, 'logs.yaml');
  }

  it('imports every file of the folder in that format', async () => {
    const [prepared] = await prepareScenarios([folder('codex')]);
    expect(prepared?.logs?.map((log) => log.transcript.header.source?.format)).toEqual(['codex', 'codex']);
  });

  it('applies it to every file, so a wrong one fails on the first file rather than being detected away', async () => {
    await expect(prepareScenarios([folder('mini-swe-agent')])).rejects.toThrow(/a\.log/);
  });
});
