import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTranscriptFile } from '../../src/scenario/ad-hoc.js';
import { writeFiles } from '../helpers/temp.js';

describe('isTranscriptFile', () => {
  it('tells a scenario .json from a log without parsing a log that has no "transcript", its key escaped or not', async () => {
    // A mini-swe-agent trajectory, which a scenario's keys make a scenario file.
    const log = '"trajectory_format":"mini-swe-agent-1","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"ok"}]';
    const dir = writeFiles({
      'log.json': `{"name":"s",${log}}`,
      'plain.json': `{"name":"s","transcript":"a",${log}}`,
      'escaped.json': `{"name":"s","tr\\u0061nscript":"a",${log}}`,
      'other-case.json': `{"name":"s","\\u0054RANSCRIPT":"a",${log}}`,
    });
    expect(await isTranscriptFile(join(dir, 'log.json'))).toBe(true);
    expect(await isTranscriptFile(join(dir, 'plain.json'))).toBe(false);
    expect(await isTranscriptFile(join(dir, 'escaped.json'))).toBe(false);
    // JSON keys are case-sensitive: "TRANSCRIPT" is no scenario's key.
    expect(await isTranscriptFile(join(dir, 'other-case.json'))).toBe(true);
  });
});
