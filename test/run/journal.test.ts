import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { fingerprintRun, formatJournalHeader, formatJournalUnit, parseJournal } from '../../src/run/journal.js';
import { prepareScenarios } from '../../src/run/run-suite.js';
import { completeProbes } from '../../src/run/prepare.js';
import { planUnits } from '../../src/run/plan.js';
import type { UnitResult } from '../../src/metrics/types.js';

const unit = (strategy: string) => ({ scenario: 'a', strategy, options: {}, summary: {}, steps: [], events: [] }) as unknown as UnitResult;
const header = formatJournalHeader({ fingerprint: 'f00d', planned: 3, options: { scenarios: ['/s/a.yaml'], redact: true } });

describe('run journal', () => {
  it('reads back the header and the units by plan index', () => {
    const journal = parseJournal(header + formatJournalUnit(2, unit('full')) + formatJournalUnit(0, unit('rolling-window')), 'j');
    expect(journal.header).toMatchObject({ format: 'ctxbench-journal/1', fingerprint: 'f00d', planned: 3, options: { redact: true } });
    expect([...journal.units.entries()].map(([i, u]) => [i, u.strategy])).toEqual([
      [2, 'full'],
      [0, 'rolling-window'],
    ]);
    expect(journal.truncated).toBe(false);
  });

  it('drops a last line cut short by a kill, and only the last', () => {
    const torn = header + formatJournalUnit(0, unit('full')) + formatJournalUnit(1, unit('gatekeeper')).slice(0, 25);
    const journal = parseJournal(torn, 'j');
    expect([...journal.units.keys()]).toEqual([0]);
    expect(journal.truncated).toBe(true);
    expect(() => parseJournal(`${header}{"unit":1,"res\n${formatJournalUnit(0, unit('full'))}`, 'out/.journal.jsonl')).toThrow(
      /^out\/\.journal\.jsonl:2: not JSON/,
    );
  });

  it('refuses a file that is not a journal, naming the line and field', () => {
    expect(() => parseJournal('{"format":"other"}\n', 'out/.journal.jsonl')).toThrow(/^out\/\.journal\.jsonl:1 \(field format\): not a ctxbench run journal/);
    expect(() => parseJournal(`${header}{"unit":-1,"result":{}}\n`, 'j')).toThrow(/^j:2 \(field unit\): not a journaled unit/);
  });

  it('fingerprints every log of a corpus: a resume notices a change in any of them, not only the first', async () => {
    const scenario = fileURLToPath(new URL('../../scenarios/real/real-mini-swe-agent.yaml', import.meta.url));
    const prepared = await prepareScenarios([scenario], {}, { deferGenerated: true });
    const units = planUnits(prepared, {});
    const logs = prepared[0]?.logs ?? [];
    expect(logs.length).toBeGreaterThan(2);
    const before = fingerprintRun(prepared, units, 'mock');
    const last = logs[logs.length - 1];
    if (last === undefined) throw new Error('no last log');
    // The last log cut by its final event: another log than the one the scenario's header came from.
    const changed = { ...last, transcript: { ...last.transcript, events: last.transcript.events.slice(0, -1) } };
    const edited = [{ ...prepared[0], logs: [...logs.slice(0, -1), changed] }] as typeof prepared;
    expect(fingerprintRun(edited, units, 'mock')).not.toBe(before);
    expect(fingerprintRun(prepared, units, 'mock')).toBe(before);
  }, 60_000);

  it('fingerprints the probes given, not those generated: the same before they are made, after, and when made at once', async () => {
    const scenario = fileURLToPath(new URL('../../scenarios/real/real-claude-code-vsla-compacted.yaml', import.meta.url));
    const deferred = await prepareScenarios([scenario], {}, { deferGenerated: true });
    const units = planUnits(deferred, {});
    const before = fingerprintRun(deferred, units, 'mock');
    expect(deferred[0]?.probes).toBeUndefined();
    await Promise.all(deferred.map(completeProbes));
    expect(deferred[0]?.probes?.probes.length).toBeGreaterThan(0);
    expect(fingerprintRun(deferred, units, 'mock')).toBe(before);
    expect(fingerprintRun(await prepareScenarios([scenario]), units, 'mock')).toBe(before);
  }, 60_000);
});
