import { describe, expect, it } from 'vitest';
import { checkAxes, choosePoints, gridSize, parseGridFlag, pointAt, MAX_GRID_POINTS, type GridAxis } from '../../src/sweep/grid.js';
import { UsageError } from '../../src/errors.js';

describe('parseGridFlag', () => {
  it.each([
    { flag: 'codex-rebuild.trigger=0.5..0.95:0.05', values: [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95] },
    { flag: 'codex-rebuild.trigger=0.1..0.3:0.1', values: [0.1, 0.2, 0.3] },
    { flag: 'x.a=1..5', values: [1, 2, 3, 4, 5] },
    { flag: 'x.a=0..10:3', values: [0, 3, 6, 9] },
    { flag: 'x.a=-1..1:0.5', values: [-1, -0.5, 0, 0.5, 1] },
    { flag: 'x.a=2..2', values: [2] },
    { flag: 'x.a=1e-3..3e-3:1e-3', values: [0.001, 0.002, 0.003] },
    { flag: 'x.a=1000..3000:1000', values: [1000, 2000, 3000] },
    { flag: 'codex-rebuild.recentUserTokens=5000,20000', values: [5000, 20000] },
    { flag: 'x.a = 5000 , 20000 ', values: [5000, 20000] },
    { flag: 'x.flag=true,false', values: [true, false] },
    { flag: 'x.mode=fast,slow', values: ['fast', 'slow'] },
    { flag: 'x.mode=\'1\',"true"', values: ['1', 'true'] },
    { flag: 'x.a=7', values: [7] },
    { flag: 'x.a=.5,1.', values: [0.5, 1] },
  ])('$flag', ({ flag, values }) => {
    expect(parseGridFlag(flag).values).toEqual(values);
  });

  it('splits the strategy from the option path', () => {
    expect(parseGridFlag('pipeline.stages.0.x=1')).toMatchObject({ strategy: 'pipeline', path: ['stages', '0', 'x'], key: 'stages.0.x' });
    expect(parseGridFlag('codex-rebuild.trigger=1')).toMatchObject({
      strategy: 'codex-rebuild',
      path: ['trigger'],
      key: 'trigger',
      flag: 'codex-rebuild.trigger=1',
    });
  });

  it.each([
    { flag: 'codex-rebuild.trigger', message: /expected strategy\.option=values/ },
    { flag: 'trigger=0.5', message: /the name must be strategy\.option/ },
    { flag: 'x..a=1', message: /the name must be strategy\.option/ },
    { flag: 'x.a=', message: /no values after =/ },
    { flag: 'x.a=1..0', message: /ends before it starts/ },
    { flag: 'x.a=0..1:0', message: /step must be > 0/ },
    { flag: 'x.a=0..1:-1', message: /step must be > 0|a range is/ },
    { flag: 'x.a=a..b', message: /a range is a\.\.b or a\.\.b:step with numbers/ },
    { flag: 'x.a=0..1:0.1:2', message: /a range is/ },
    { flag: 'x.a=1,,2', message: /an empty value/ },
    { flag: 'x.a=1,2,1', message: /listed twice/ },
    { flag: 'x.a=0..1:0.00001', message: /at most 10000/ },
  ])('rejects $flag, naming the flag', ({ flag, message }) => {
    expect(() => parseGridFlag(flag)).toThrow(UsageError);
    expect(() => parseGridFlag(flag)).toThrow(message);
    expect(() => parseGridFlag(flag)).toThrow(`--grid '${flag}'`);
  });
});

describe('grid points', () => {
  const axes: GridAxis[] = [parseGridFlag('s.a=1,2'), parseGridFlag('s.b=x,y,z')];

  it('is the cartesian product, first axis outermost', () => {
    expect(gridSize(axes)).toBe(6);
    expect(choosePoints(axes).map((p) => p.label)).toEqual(['s a=1 b=x', 's a=1 b=y', 's a=1 b=z', 's a=2 b=x', 's a=2 b=y', 's a=2 b=z']);
    expect(pointAt(axes, 4)).toEqual({ index: 4, strategy: 's', values: { a: 2, b: 'y' }, label: 's a=2 b=y' });
  });

  it('samples distinct points, seeded, in grid order', () => {
    const big = [parseGridFlag('s.a=0..99'), parseGridFlag('s.b=0..99')];
    const sample = choosePoints(big, { count: 25, seed: 7 });
    const indices = sample.map((p) => p.index);
    expect(new Set(indices).size).toBe(25);
    expect(indices).toEqual([...indices].sort((x, y) => x - y));
    expect(choosePoints(big, { count: 25, seed: 7 })).toEqual(sample);
    expect(choosePoints(big, { count: 25, seed: 8 }).map((p) => p.index)).not.toEqual(indices);
    for (const point of sample) expect(point).toEqual(pointAt(big, point.index));
  });

  it('runs the whole grid when the sample is as large, and refuses a grid too large to list', () => {
    expect(choosePoints(axes, { count: 10, seed: 1 })).toHaveLength(6);
    const huge = [parseGridFlag('s.a=1..1000'), parseGridFlag('s.b=1..1000')];
    expect(() => choosePoints(huge)).toThrow(new RegExp(`1000000 points; at most ${MAX_GRID_POINTS}.*--sample`));
    expect(choosePoints(huge, { count: 40, seed: 1 })).toHaveLength(40);
    expect(() => choosePoints(axes, { count: 0, seed: 1 })).toThrow(/--sample expects at least 1 point/);
  });

  it('wants one strategy, each option once', () => {
    expect(checkAxes(axes)).toEqual(['s']);
    expect(() => checkAxes([])).toThrow(/at least one --grid/);
    expect(checkAxes([parseGridFlag('s.a=1'), parseGridFlag('t.b=1'), parseGridFlag('s.c=1')])).toEqual(['s', 't']);
    expect(() => checkAxes([parseGridFlag('s.a=1'), parseGridFlag('s.a=2')])).toThrow(/--grid 's\.a=2': s\.a is swept twice/);
    // The same option name of two strategies is two axes.
    expect(checkAxes([parseGridFlag('s.a=1'), parseGridFlag('t.a=2')])).toEqual(['s', 't']);
  });

  it('puts the grids of several strategies one after another, each its own product', () => {
    const axes = [parseGridFlag('s.a=1,2'), parseGridFlag('t.k=5,20'), parseGridFlag('s.b=x,y')];
    expect(gridSize(axes)).toBe(6);
    expect(choosePoints(axes).map((p) => p.label)).toEqual(['s a=1 b=x', 's a=1 b=y', 's a=2 b=x', 's a=2 b=y', 't k=5', 't k=20']);
    expect(pointAt(axes, 5)).toEqual({ index: 5, strategy: 't', values: { k: 20 }, label: 't k=20' });
    const sample = choosePoints(axes, { count: 3, seed: 4 });
    expect(sample).toHaveLength(3);
    for (const point of sample) expect(point).toEqual(pointAt(axes, point.index));
  });
});
