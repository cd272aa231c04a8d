import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { adHocScenario } from '../../src/scenario/ad-hoc.js';
import { loadTranscript } from '../../src/scenario/load-transcript.js';
import { transcriptSource } from '../../src/scenario/resolve.js';
import { replayRecordedNeeded } from '../../src/replay/needed-replay.js';

/**
 * Issue 36: `validate` measures `recorded` as a run does, so the two agree by construction. A real
 * Claude Code log with a compaction after which the usage leaves room for some of the files the
 * importer rebuilt (replay/hidden-prefix.ts `fitRestored`): the case where they once differed.
 */
const log = resolve(import.meta.dirname, '../../fixtures/real/claude-code-compactions/swordintel-54bc4295.jsonl');

describe('validate and a run agree on recorded', () => {
  it("gives every needed use the outcome recorded's row of needed.csv has, and holds the kept and summarized ones", async () => {
    const out = tempDir();
    const run = await cli(['run', log, '--strategies', 'recorded', '--quiet', '--reports', 'csv', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const [header = '', ...lines] = readFileSync(join(out, 'needed.csv'), 'utf8').trim().split('\n');
    expect(header).toBe('scenario,strategy,fact,kind,source_step,use_step,outcome');
    // The fact may hold commas: the last four cells are read from the end.
    const rows = lines.map((line) => line.split(',').slice(-4).join(','));

    const loaded = await adHocScenario(log);
    const transcript = await loadTranscript(transcriptSource(loaded, {}), 42);
    const measured = await replayRecordedNeeded(loaded, transcript);
    expect(measured.map(({ record }) => `${record.kind},${record.sourceStep},${record.useStep},${record.outcome}`)).toEqual(rows);
    // Not every use is held, and the compaction's fitted re-attachments are what held some of them.
    const held = measured.filter(({ record }) => record.outcome === 'kept' || record.outcome === 'summarized').length;
    expect(held).toBeLessThan(measured.length);

    const validate = await cli(['validate', log, '--json']);
    expect(validate.code).toBe(0);
    const { pooled } = JSON.parse(validate.stdout) as { pooled: { needed: number; present: number } };
    expect(pooled).toMatchObject({ needed: measured.length, present: held });
  });
});
