import { describe, expect, it } from 'vitest';
import { findMismatches } from '../../src/check/mismatch.js';
import type { RunResult, ScenarioInfo } from '../../src/metrics/types.js';
import { buildRun } from './builders.js';

/** A run of one unit whose scenario has the given transcript path and digests. */
function runOf(info: Partial<ScenarioInfo>): RunResult {
  const run = buildRun([{ scenario: 'corpus', strategy: 'full', steps: [100] }]);
  return { ...run, scenarios: run.scenarios.map((s) => ({ ...s, transcript: 'logs', ...info })) };
}

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe('findMismatches: transcripts by digest of the same kind, else by path', () => {
  it('compares corpora by the digest of their files', () => {
    expect(findMismatches(runOf({ logFilesSha256: A }), runOf({ logFilesSha256: A, transcript: 'elsewhere' }))).toEqual([]);
    expect(findMismatches(runOf({ logFilesSha256: A }), runOf({ logFilesSha256: B }))).toEqual([
      { field: 'scenarios.corpus.transcript', text: 'scenario corpus: the transcripts differ in content (both at logs)' },
    ]);
  });

  it('compares a corpus with a baseline written before logFilesSha256 (a digest of another kind) by path', () => {
    expect(findMismatches(runOf({ logFilesSha256: A }), runOf({ transcriptSha256: B }))).toEqual([]);
    expect(findMismatches(runOf({ logFilesSha256: A }), runOf({ transcriptSha256: B, transcript: 'old-logs' }))).toEqual([
      { field: 'scenarios.corpus.transcript', text: 'scenario corpus: transcript logs in the run, old-logs in the baseline' },
    ]);
  });

  it('still compares single transcripts by their digest as read', () => {
    expect(findMismatches(runOf({ transcriptSha256: A }), runOf({ transcriptSha256: B }))).toHaveLength(1);
    expect(findMismatches(runOf({ transcriptSha256: A }), runOf({ transcriptSha256: A, transcript: 'x' }))).toEqual([]);
  });
});
