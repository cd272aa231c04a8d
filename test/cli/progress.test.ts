import { describe, expect, it } from 'vitest';
import { createProgress, formatElapsed, type ProgressStream } from '../../src/cli/progress.js';
import type { UnitProgressEvent } from '../../src/run/run-suite.js';
import { cli } from '../helpers/cli.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

/** A stream that records what was written, and a clock the test moves by hand. */
function harness(isTTY: boolean, columns = 120) {
  const writes: string[] = [];
  const stream: ProgressStream = { isTTY, columns, write: (text) => writes.push(text) > 0 };
  const clock = { ms: 0 };
  return { writes, stream, clock, now: () => clock.ms };
}

/**
 * The engine's side of progress (run-suite.ts): events carrying its tallies, run-wide and per
 * scenario, for a plan of `units` [scenario, strategy] pairs of which `resumed` came from a journal.
 */
function engine(units: readonly (readonly [string, string])[], resumed: readonly number[] = []) {
  const done = new Set(resumed);
  const scenarioOf = (index: number): string => units[index]?.[0] ?? '';
  const count = (scenario: string, only: (i: number) => boolean): number => units.filter(([s], i) => s === scenario && only(i)).length;
  return (phase: 'start' | 'end', index: number): UnitProgressEvent => {
    if (phase === 'end') done.add(index);
    const scenario = scenarioOf(index);
    return {
      phase,
      scenario,
      strategy: units[index]?.[1] ?? '',
      index,
      total: units.length,
      done: done.size,
      resumed: resumed.length,
      scenarioTotal: count(scenario, () => true),
      scenarioDone: count(scenario, (i) => done.has(i)),
    };
  };
}

const FOUR = [
  ['overflow-coding', 'full'],
  ['overflow-coding', 'rolling-window'],
  ['tpm-limited', 'full'],
  ['tpm-limited', 'rolling-window'],
] as const;

/** Two scenarios × two strategies, each unit taking `unitMs`, reported as the engine does. */
function runUnits(onUnit: ReturnType<typeof createProgress>['onUnit'], clock: { ms: number }, unitMs: number): void {
  const event = engine(FOUR);
  FOUR.forEach((_, index) => {
    onUnit(event('start', index));
    clock.ms += unitMs;
    onUnit(event('end', index));
  });
}

describe('createProgress', () => {
  it('on a terminal: a bar rewritten in place with units, the unit running, elapsed and ETA; cleared at the end', () => {
    const { writes, stream, clock, now } = harness(true);
    const progress = createProgress({ quiet: false, stream, now, tickMs: 0 });
    runUnits(progress.onUnit, clock, 2000);
    progress.done();
    expect(writes[0]).toBe('\r\x1b[2K[░░░░░░░░░░░░░░░░░░░░░░░░] 0/4 units · 0.0 s · overflow-coding × full');
    // No ETA from one unit: the first to finish says little about the rest.
    expect(writes[1]).toBe('\r\x1b[2K[██████░░░░░░░░░░░░░░░░░░] 1/4 units · 2.0 s · overflow-coding × full');
    expect(writes[3]).toBe('\r\x1b[2K[████████████░░░░░░░░░░░░] 2/4 units · 4.0 s · ETA 4.0 s · overflow-coding × rolling-window');
    expect(writes[6]).toBe('\r\x1b[2K[██████████████████░░░░░░] 3/4 units · 6.0 s · ETA 2.0 s · tpm-limited × rolling-window');
    expect(writes.at(-2)).toBe('\r\x1b[2K[████████████████████████] 4/4 units · 8.0 s · tpm-limited × rolling-window');
    expect(writes.at(-1)).toBe('\r\x1b[2K');
    expect(writes.every((text) => !text.includes('\n'))).toBe(true);
  });

  it('on a narrow terminal: the line is cut to fit', () => {
    const { writes, stream, clock, now } = harness(true, 40);
    const progress = createProgress({ quiet: false, stream, now, tickMs: 0 });
    runUnits(progress.onUnit, clock, 10);
    for (const text of writes) expect([...text.replace('\r\x1b[2K', '')].length).toBeLessThanOrEqual(39);
  });

  it('in a log: one line per finished scenario, and periodic lines at most every 5 s', () => {
    const { writes, stream, clock, now } = harness(false);
    const progress = createProgress({ quiet: false, stream, now });
    runUnits(progress.onUnit, clock, 6000);
    progress.done();
    expect(writes).toEqual([
      'ctxbench: 1/4 units · 6.0 s · overflow-coding × full\n',
      'ctxbench: scenario overflow-coding done (2 strategies, 12.0 s) · 2/4 units\n',
      'ctxbench: 3/4 units · 18.0 s · ETA 6.0 s · tpm-limited × full\n',
      'ctxbench: scenario tpm-limited done (2 strategies, 12.0 s) · 4/4 units\n',
    ]);
  });

  it("in a log: a corpus's logs move the line while its units, which end together after the last log, run", () => {
    const { writes, stream, clock, now } = harness(false);
    const progress = createProgress({ quiet: false, stream, now });
    const units = [
      ['corpus', 'full'],
      ['corpus', 'rolling-window'],
    ] as const;
    const event = engine(units);
    progress.onUnit(event('start', 0));
    progress.onUnit(event('start', 1));
    for (const done of [1, 2, 3]) {
      clock.ms += 3000;
      progress.onUnit({ ...event('start', 0), phase: 'log', logs: { done, total: 3 } });
    }
    progress.onUnit(event('end', 0));
    progress.onUnit(event('end', 1));
    progress.done();
    expect(writes).toEqual([
      'ctxbench: 0/2 units · 2/3 logs · 6.0 s · corpus × rolling-window\n',
      'ctxbench: scenario corpus done (2 strategies, 9.0 s) · 2/2 units\n',
    ]);
  });

  it('in a log: fast units print only the scenario lines', () => {
    const { writes, stream, clock, now } = harness(false);
    const progress = createProgress({ quiet: false, stream, now });
    runUnits(progress.onUnit, clock, 100);
    progress.done();
    expect(writes).toHaveLength(2);
    expect(writes.every((line) => line.startsWith('ctxbench: scenario '))).toBe(true);
  });

  it('counts right when a worker pool interleaves units and reports them out of order', () => {
    const { writes, stream, clock, now } = harness(false);
    const progress = createProgress({ quiet: false, stream, now });
    const event = engine([
      ['a', 'full'],
      ['a', 'rolling-window'],
      ['b', 'full'],
      ['b', 'rolling-window'],
    ]);
    progress.onUnit(event('start', 0));
    progress.onUnit(event('start', 1));
    progress.onUnit(event('end', 1));
    progress.onUnit(event('start', 2));
    expect(writes).toEqual([]); // a still has a unit running
    clock.ms = 1000;
    progress.onUnit(event('end', 0));
    progress.onUnit(event('start', 3));
    progress.onUnit(event('end', 3));
    progress.onUnit(event('end', 2));
    progress.done();
    expect(writes).toEqual(['ctxbench: scenario a done (2 strategies, 1.0 s) · 2/4 units\n', 'ctxbench: scenario b done (2 strategies, 1.0 s) · 4/4 units\n']);
  });

  it("says a scenario is done once, when its last unit is, even when its units come between another scenario's", () => {
    const { writes, stream, clock, now } = harness(false);
    const progress = createProgress({ quiet: false, stream, now });
    // Workers take units of scenarios of one transcript first: a's units alternate with b's.
    const plan = [
      ['a', 'full'],
      ['b', 'full'],
      ['a', 'rolling-window'],
      ['b', 'rolling-window'],
      ['a', 'codex-rebuild'],
    ] as const;
    const event = engine(plan);
    plan.forEach((_, index) => {
      progress.onUnit(event('start', index));
      clock.ms += 100;
      progress.onUnit(event('end', index));
    });
    progress.done();
    expect(writes).toEqual(['ctxbench: scenario b done (2 strategies, 0.3 s) · 4/5 units\n', 'ctxbench: scenario a done (3 strategies, 0.5 s) · 5/5 units\n']);
  });

  it('counts on from the units a --resume took from its journal, and times the ETA on the units run now', () => {
    const { writes, stream, clock, now } = harness(true);
    const progress = createProgress({ quiet: false, stream, now, tickMs: 0 });
    const event = engine(FOUR, [0, 1]);
    progress.onUnit(event('start', 2));
    clock.ms += 2000;
    progress.onUnit(event('end', 2));
    progress.onUnit(event('start', 3));
    clock.ms += 2000;
    progress.onUnit(event('end', 3));
    progress.done();
    expect(writes[0]).toBe('\r\x1b[2K[████████████░░░░░░░░░░░░] 2/4 units (2 resumed) · 0.0 s · tpm-limited × full');
    expect(writes.at(-2)).toBe('\r\x1b[2K[████████████████████████] 4/4 units (2 resumed) · 4.0 s · tpm-limited × rolling-window');
  });

  it('with --quiet: nothing, terminal or not', () => {
    for (const tty of [true, false]) {
      const { writes, stream, clock, now } = harness(tty);
      const progress = createProgress({ quiet: true, stream, now });
      runUnits(progress.onUnit, clock, 6000);
      progress.done();
      expect(writes).toEqual([]);
    }
  });
});

describe('formatElapsed', () => {
  it.each([
    [4.21, '4.2 s'],
    [59.94, '59.9 s'],
    [125, '2m 05s'],
    [3725, '1h 02m'],
  ])('%d s → %s', (seconds, text) => expect(formatElapsed(seconds)).toBe(text));
});

describe('ctxbench run: progress in a log (stderr not a terminal)', () => {
  it('says each scenario is done once, when its last unit is, and ends at every unit, on three workers', async () => {
    const scenario = (name: string, seed: number): string =>
      [
        `name: ${name}`,
        `transcript: { generate: { steps: 6, seed: ${seed}, toolOutputTokens: 200 } }`,
        'window: 64000',
        'strategies: [full, rolling-window, observation-masking]',
      ].join('\n');
    const dir = writeFiles({ 'a.yaml': scenario('a', 1), 'b.yaml': scenario('b', 2), 'c.yaml': scenario('c', 3) });
    const tty = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');
    Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true });
    try {
      const { code, stderr } = await cli(['run', dir, '--workers', '3', '--reports', 'json', '-o', tempDir()]);
      expect(code, stderr).toBe(0);
      const done = stderr.split('\n').filter((line) => line.includes(' done ('));
      expect(done.map((line) => /scenario (\w+) done \(3 strategies/.exec(line)?.[1]).sort()).toEqual(['a', 'b', 'c']);
      expect(done.at(-1)).toMatch(/· 9\/9 units$/);
    } finally {
      if (tty === undefined) delete (process.stderr as { isTTY?: boolean }).isTTY;
      else Object.defineProperty(process.stderr, 'isTTY', tty);
    }
  });
});
