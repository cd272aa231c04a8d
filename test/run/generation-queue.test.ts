import { describe, expect, it } from 'vitest';
import { generateRequested } from '../../src/run/generation-queue.js';
import { generateProbes } from '../../src/probes/generate.js';
import { extractNeededUses } from '../../src/probes/needed/extract.js';
import { readTranscript } from '../../src/transcript/read.js';
import { createMemoStore, withMemoStore } from '../../src/memo.js';

const fixture = 'fixtures/probes/session.ctx.jsonl';

describe('generateRequested', () => {
  it('makes a log’s probes in a store of their own: the thread’s store gains no table, and the probes are the same', async () => {
    const transcript = await readTranscript(fixture);
    const options = { max: 3 };
    const thread = createMemoStore();
    const made = withMemoStore(thread, () => generateRequested({ type: 'generate', id: 7, transcript, options }, true));
    expect(thread.tables).toBe(0);
    expect(made.id).toBe(7);
    expect(made.probes).toEqual(generateProbes(transcript, options));
    // The log's needed facts, which its probe set is resolved with, made on this thread too.
    expect(made.probes.length).toBeGreaterThan(0);
    expect(made.needed).toEqual(extractNeededUses(transcript));
    // The same probes with memos off.
    expect(withMemoStore(thread, () => generateRequested({ type: 'generate', id: 8, transcript, options }, false)).probes).toEqual(made.probes);
    expect(thread.tables).toBe(0);
    thread.drop();
  });
});
