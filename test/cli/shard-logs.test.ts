import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createShardLogsWriter, readShardLogs } from '../../src/cli/shard-logs.js';
import { packLogResult, unpackLogResult } from '../../src/run/corpus-units.js';
import { runSuite } from '../../src/run/run-suite.js';
import type { RunResult, UnitResult } from '../../src/metrics/types.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

const SECRET = 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78';

describe('the shard-logs files', () => {
  it('hold each result redacted (unless --no-redact), where the manifest says, for merge to read back', async () => {
    const dir = writeFiles({
      's.yaml': 'name: s\ntranscript:\n  generate: { steps: 4, seed: 2, dialect: openai, toolOutputTokens: 300 }\nprovider: openai\nstrategies: [full]\n',
    });
    const [unit] = (await runSuite({ scenarios: [dir] })).units as [UnitResult];
    const secretive: UnitResult = { ...unit, steps: unit.steps.map((step, i) => (i === 0 ? { ...step, messageId: `id ${SECRET}` } : step)) };
    const result = {
      shard: {
        index: 1,
        count: 2,
        planned: 2,
        units: [0, 1],
        corpora: [{ scenario: 's', units: [0, 1], logs: [{ transcript: 'a', sha256: 'x' }], taken: [0] }],
      },
    } as unknown as RunResult;
    for (const redact of [true, false]) {
      const out = tempDir();
      const writer = createShardLogsWriter(out, { redact, resume: false });
      writer.add({ corpus: 0, log: { index: 0, id: 'log-0' }, packed: [packLogResult(secretive), packLogResult(unit)] });
      expect(writer.finish(result)).toEqual([join(out, 'shard-logs.json'), join(out, 'shard-logs.bin')]);
      const logs = readShardLogs(join(out, 'result.json'), result);
      const back = unpackLogResult(logs!.read(0, 0, 0), 'f', 'g');
      expect(back.steps[0]?.messageId).toBe(redact ? 'id [redacted:openai-key]' : `id ${SECRET}`);
      // A result without a secret is written as it came.
      expect(Buffer.from(logs!.read(0, 0, 1)).equals(Buffer.from(packLogResult(unit)))).toBe(true);
      logs!.close();
    }
  });
});
