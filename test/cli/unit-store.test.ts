import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createUnitStore } from '../../src/cli/unit-store.js';
import { storedDetails, storedForm } from '../../src/report/json.js';
import type { RunResult, UnitResult } from '../../src/metrics/types.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A unit whose numbers JSON alone would not bring to their stored form: long fractions, -0, NaN, undefined fields. */
function unitOf(strategy: string): UnitResult {
  return {
    scenario: 's',
    strategy,
    summary: { cost_usd: 0.123456789 },
    steps: [{ step: 1, atMs: 1.23456789, waitMs: -0, costUsd: 0.000123456, failure: undefined }],
    events: [],
    extra: { ratio: 2 / 3, missing: Number.NaN, list: [1 / 3, undefined] },
  } as unknown as UnitResult;
}

describe('merge unit store', () => {
  it('hands units back in the form the reports render, as storedDetails copies a unit held in memory', () => {
    const out = mkdtempSync(join(tmpdir(), 'ctxbench-unit-store-'));
    folders.push(out);
    const units = [unitOf('a'), unitOf('b')];
    const store = createUnitStore(out);
    units.forEach((unit, i) => store.add(i, unit));
    const result = storedForm({ units } as unknown as RunResult);
    const fromStore = storedDetails(result, { count: 2, load: (i) => store.load(i) as UnitResult });
    const inMemory = storedDetails(result, { count: 2, load: (i) => units[i] as UnitResult });
    for (const i of [0, 1, 0]) expect(fromStore.load(i)).toStrictEqual(inMemory.load(i));
    expect((fromStore.load(0).steps[0] as { atMs: number }).atMs).toBe(1.234568);
    store.remove();
  });

  it('refuses a store cut short under it instead of reading past its end', () => {
    const out = mkdtempSync(join(tmpdir(), 'ctxbench-unit-store-'));
    folders.push(out);
    const store = createUnitStore(out);
    [unitOf('a'), unitOf('b'), unitOf('c')].forEach((unit, i) => store.add(i, unit));
    truncateSync(join(out, '.merge-units.jsonl'), 10);
    expect(() => store.load(2)).toThrow(/ended inside a unit it stored/);
    store.remove();
  });
});
