import { describe, expect, it } from 'vitest';
import { choosePoints, parseGridFlag } from '../../src/sweep/grid.js';
import { mergeOptions, pointOptions, specsForPoints, sweptStrategy, validatePoint } from '../../src/sweep/points.js';
import type { Scenario } from '../../src/scenario/types.js';

const axesOf = (...flags: string[]) => flags.map(parseGridFlag);

describe('sweep points', () => {
  it('sets each axis value at its option path', () => {
    const axes = axesOf('s.a=1', 's.b.c=x');
    expect(pointOptions(axes, choosePoints(axes)[0]!)).toEqual({ a: 1, b: { c: 'x' } });
    expect(mergeOptions({ a: 0, b: { c: 'y', d: 2 }, e: [1] }, { a: 1, b: { c: 'x' }, e: [2] })).toEqual({ a: 1, b: { c: 'x', d: 2 }, e: [2] });
  });

  it('names the --grid flag of an unknown strategy', () => {
    expect(() => sweptStrategy(axesOf('nope.a=1'))).toThrow(/--grid 'nope\.a=1': unknown strategy "nope"; known strategies: full, /);
  });

  it.each([
    { flags: ['codex-rebuild.trigger=0.5,1.5'], message: /--grid 'codex-rebuild\.trigger=0\.5,1\.5': trigger=1\.5 is not valid for codex-rebuild: / },
    {
      flags: ['codex-rebuild.trigger=0.5', 'codex-rebuild.recentUserTokens=-5'],
      message: /--grid 'codex-rebuild\.recentUserTokens=-5': recentUserTokens=-5 is not valid/,
    },
    {
      flags: ['codex-rebuild.trigger=0.5', 'codex-rebuild.triger=0.5'],
      message: /--grid 'codex-rebuild\.triger=0\.5': triger=0\.5 is not valid for codex-rebuild: .*triger/,
    },
    { flags: ['rolling-window.groups=two'], message: /--grid 'rolling-window\.groups=two': groups=two is not valid for rolling-window/ },
  ])("validates with the strategy's own schema, naming the flag: $flags", ({ flags, message }) => {
    const axes = axesOf(...flags);
    const strategy = sweptStrategy(axes);
    const check = () => {
      for (const point of choosePoints(axes)) validatePoint(strategy, axes, point, pointOptions(axes, point));
    };
    expect(check).toThrow(message);
  });

  it("lays the points over the scenario's own options for the strategy, and labels them", () => {
    const axes = axesOf('rolling-window.groups=1,2');
    const scenario = { name: 's', strategies: [{ label: 'rw', strategy: 'rolling-window', options: { groups: 9 } }] } as unknown as Scenario;
    const specs = specsForPoints(sweptStrategy(axes), axes, choosePoints(axes))(scenario);
    expect(specs).toEqual([
      { label: 'rolling-window groups=1', strategy: 'rolling-window', options: { groups: 1 } },
      { label: 'rolling-window groups=2', strategy: 'rolling-window', options: { groups: 2 } },
    ]);
  });
});
