import { describe, expect, it } from 'vitest';
import { createProgress, formatElapsed, type ProgressStream } from '../../src/cli/progress.js';

/** A stream that records what was written, and a clock the test moves by hand. */
function harness(isTTY: boolean, columns = 120) {
  const writes: string[] = [];
  const stream: ProgressStream = { isTTY, columns, write: (text) => writes.push(text) > 0 };
  const clock = { ms: 0 };
  return { writes, stream, clock, now: () => clock.ms };
}

/** Two scenarios × two strategies, each unit taking `unitMs`, reported as the engine does. */
function runUnits(onUnit: ReturnType<typeof createProgress>['onUnit'], clock: { ms: number }, unitMs: number): void {
  const units = [
    ['overflow-coding', 'full'],
    ['overflow-coding', 'rolling-window'],
    ['tpm-limited', 'full'],
    ['tpm-limited', 'rolling-window'],
  ] as const;
  units.forEach(([scenario, strategy], index) => {
    onUnit({ phase: 'start', scenario, strategy, index, total: units.length });
    clock.ms += unitMs;
    onUnit({ phase: 'end', scenario, strategy, index, total: units.length });
  });
}

describe('createProgress', () => {
  it('on a terminal: a bar rewritten in place with units, the unit running, elapsed and ETA; cleared at the end', () => {
    const { writes, stream, clock, now } = harness(true);
    const progress = createProgress({ quiet: false, stream, now, tickMs: 0 });
    runUnits(progress.onUnit, clock, 2000);
    progress.done();
    expect(writes[0]).toBe('\r\x1b[2K[░░░░░░░░░░░░░░░░░░░░░░░░] 0/4 units · 0.0 s · overflow-coding × full');
    expect(writes[1]).toBe('\r\x1b[2K[██████░░░░░░░░░░░░░░░░░░] 1/4 units · 2.0 s · ETA 6.0 s · overflow-coding × full');
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
    runUnits(progress.onUnit, clock, 3000);
    progress.done();
    expect(writes).toEqual([
      'ctxbench: 2/4 units · 6.0 s · ETA 6.0 s · overflow-coding × rolling-window\n',
      'ctxbench: scenario overflow-coding done (2 strategies, 6.0 s) · 2/4 units\n',
      'ctxbench: 4/4 units · 12.0 s · tpm-limited × rolling-window\n',
      'ctxbench: scenario tpm-limited done (2 strategies, 6.0 s) · 4/4 units\n',
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
    const event = (phase: 'start' | 'end', scenario: string, strategy: string, index: number) => ({ phase, scenario, strategy, index, total: 4 });
    progress.onUnit(event('start', 'a', 'full', 0));
    progress.onUnit(event('start', 'a', 'rolling-window', 1));
    progress.onUnit(event('end', 'a', 'rolling-window', 1));
    progress.onUnit(event('start', 'b', 'full', 2));
    expect(writes).toEqual([]); // a still has a unit running
    clock.ms = 1000;
    progress.onUnit(event('end', 'a', 'full', 0));
    progress.onUnit(event('start', 'b', 'rolling-window', 3));
    progress.onUnit(event('end', 'b', 'rolling-window', 3));
    progress.onUnit(event('end', 'b', 'full', 2));
    progress.done();
    expect(writes).toEqual(['ctxbench: scenario a done (2 strategies, 1.0 s) · 2/4 units\n', 'ctxbench: scenario b done (2 strategies, 1.0 s) · 4/4 units\n']);
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
