import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateProbes } from '../../src/probes/generate.js';
import { containsNormalised, normaliseAnswer } from '../../src/probes/grade.js';
import { listMessages, renderMessageText } from '../../src/probes/message-text.js';
import { probeSchema } from '../../src/transcript/probe-schema.js';
import { importTranscript } from '../../src/transcript/importers/index.js';

/**
 * Probe generation on the real agent logs of fixtures/real (see its PROVENANCE.md). Sessions of
 * twenty messages or more yield at least ten fair probes each. The three shortest logs (four to
 * eight messages, two to four steps) hold fewer facts than that which are not repeated at their
 * end: their counts are pinned here, so a change is a decision.
 */

const ROOT = 'fixtures/real';
/** Folders copied in before their importer work (issue 29) lands; that work takes them out of here. */
const PENDING = new Set(['claude-code-compactions']);
const files = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !PENDING.has(entry.name))
  .flatMap((dir) =>
    readdirSync(join(ROOT, dir.name))
      .filter((name) => !name.endsWith('.expected.json'))
      .map((name) => `${dir.name}/${name}`),
  );

/** Probes the shortest logs yield (their only facts that no later message repeats). */
const SHORT_LOGS: Record<string, number> = {
  'claude-code/hello-world-script.jsonl': 1, // the chmod-and-run command; the script's path is in the final summary
  'claude-code/stop-hook-uncommitted-changes.jsonl': 0, // the path, the old line and the docstring all recur in the last turns
  'openhands/basic.json': 2, // the editor the agent chose and the file it wrote; the game's code recurs in its result
};

/**
 * Logs long enough for ten probes where fewer questions single out a unique line (probes/findable.ts):
 * SWE-agent's reproduce script, its output and the patch repeat the same identifiers.
 */
const FEW_UNIQUE: Record<string, number> = {
  'swe-agent/marshmallow-1867.function-calling.traj': 7,
};

describe.each(files)('generateProbes on %s', async (file) => {
  const transcript = await importTranscript(join(ROOT, file));
  const messages = listMessages(transcript.events);
  const probes = generateProbes(transcript);

  it(SHORT_LOGS[file] === undefined ? 'yields at least 10 probes' : `yields the ${SHORT_LOGS[file]} probes a short log holds`, () => {
    expect(messages.length >= 20).toBe(SHORT_LOGS[file] === undefined);
    if (FEW_UNIQUE[file] !== undefined) expect(probes).toHaveLength(FEW_UNIQUE[file]);
    else if (SHORT_LOGS[file] === undefined) expect(probes.length).toBeGreaterThanOrEqual(10);
    else expect(probes).toHaveLength(SHORT_LOGS[file]);
  });

  it('writes valid probes whose evidence holds the answer, which the question does not give away', () => {
    for (const probe of probes) {
      expect(probeSchema.parse(probe)).toEqual(probe);
      const answer = normaliseAnswer(probe.expected.anyOf?.[0] ?? '');
      expect(containsNormalised(normaliseAnswer(probe.question), answer), probe.question).toBe(false);
      for (const id of probe.evidence) {
        const message = messages.find((m) => m.id === id);
        expect(message, id).toBeDefined();
        expect(containsNormalised(normaliseAnswer(renderMessageText(message ?? messages[0]!, { thinking: true })), answer), `${probe.id} in ${id}`).toBe(true);
      }
      const last = messages.findIndex((m) => m.id === probe.evidence.at(-1));
      const later = messages.slice(last + 1);
      expect(
        later.some((m) => containsNormalised(normaliseAnswer(renderMessageText(m, { thinking: true })), answer)),
        probe.id,
      ).toBe(false);
    }
  });
});
