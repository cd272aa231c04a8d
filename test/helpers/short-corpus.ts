import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp.js';
import { CORPUS_LOGS } from '../../src/metrics/corpus.js';

const REAL = fileURLToPath(new URL('../../fixtures/real/mini-swe-agent/', import.meta.url));

/**
 * A corpus just past `CORPUS_LOGS` in a fresh folder: the two shortest real trajectories,
 * alternately, each copy named apart, in `logs/`, and `corpus.yaml` over them (probes generated)
 * with `strategies`. Returns the scenario file.
 */
export function shortCorpus(strategies: readonly string[] = ['full', 'observation-masking']): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'logs'));
  const sources = ['django__django-11163.traj.json', 'django__django-10999.traj.json'];
  for (let i = 0; i <= CORPUS_LOGS; i++) {
    const name = sources[i % sources.length] as string;
    copyFileSync(join(REAL, name), join(dir, 'logs', `${String(i).padStart(2, '0')}-${name}`));
  }
  const scenario = join(dir, 'corpus.yaml');
  writeFileSync(scenario, `name: corpus\ntranscript: logs\nprobes: generate\nstrategies: [${strategies.join(', ')}]\n`);
  return scenario;
}
