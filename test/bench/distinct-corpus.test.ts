import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeDistinctCorpus } from '../../src/bench/distinct-corpus.js';
import { importTranscript } from '../../src/transcript/importers/index.js';
import type { MessageEvent } from '../../src/transcript/types.js';
import { tempDir } from '../helpers/temp.js';

const SOURCE = resolve(import.meta.dirname, '../../fixtures/real/mini-swe-agent');

const messagesOf = async (file: string): Promise<MessageEvent[]> =>
  (await importTranscript(file)).events.filter((e): e is MessageEvent => e.type === 'message');

describe('the bench corpus of distinct trajectories', () => {
  it('renames each copy apart: the same steps and tool calls, none of the task and model texts of another copy, the same bytes for the same seed', async () => {
    const first = join(tempDir(), 'logs');
    const again = join(tempDir(), 'logs');
    writeDistinctCorpus(SOURCE, first, 50);
    writeDistinctCorpus(SOURCE, again, 50);
    const files = readdirSync(first).sort();
    expect(files).toHaveLength(50);
    for (const file of files) expect(readFileSync(join(again, file), 'utf8')).toBe(readFileSync(join(first, file), 'utf8'));

    const name = 'django__django-10999.traj.json';
    const copies = await Promise.all(['c00', 'c01', 'c02'].map((copy) => messagesOf(join(first, `${copy}-${name}`))));
    const [original, one, two] = copies as [MessageEvent[], MessageEvent[], MessageEvent[]];
    expect(one.map((m) => [m.role, m.toolCalls?.length ?? 0])).toEqual(original.map((m) => [m.role, m.toolCalls?.length ?? 0]));
    // The harness's system prompt stays; the task, the model's replies and the outputs do not.
    expect(one[0]?.text).toBe(original[0]?.text);
    const texts = (ms: MessageEvent[]) => new Set(ms.slice(1).map((m) => m.text));
    const seen = new Set([...texts(original), ...texts(two)]);
    const repeated = [...texts(one)].filter((text) => seen.has(text));
    // Only the harness's own short replies repeat (an empty output with its return code, a format error).
    for (const text of repeated) expect(text).toMatch(/^<returncode>\d<\/returncode>\n<output>\n<\/output>$|^Please always provide EXACTLY ONE action/);
    expect(repeated.length).toBeLessThan(one.length / 5);
    // Paths are renamed too.
    expect(original[2]?.text).toContain('django/utils');
    expect(one[2]?.text).not.toContain('django/utils');
  });
});
