import { describe, expect, it } from 'vitest';
import { renderJson, roundFractions, storedForm } from '../../src/report/json.js';
import type { RunResult } from '../../src/metrics/types.js';
import { buildRunResult } from './run-result.js';

describe('renderJson', () => {
  it('writes result.json, 2-space indented with a trailing newline', () => {
    const [file, ...rest] = renderJson(buildRunResult());
    expect(rest).toEqual([]);
    expect(file?.file).toBe('result.json');
    expect(file?.contents.startsWith('{\n  "schemaVersion": 2,\n  "tool": {\n    "name": "ctxbench"')).toBe(true);
    expect(file?.contents.endsWith('}\n')).toBe(true);
  });

  it('is byte-identical across renders of equal results', () => {
    expect(renderJson(buildRunResult())[0]?.contents).toBe(renderJson(buildRunResult())[0]?.contents);
  });

  it('rounds fractions to 6 decimals and keeps integers and nulls', () => {
    const parsed = JSON.parse(renderJson(buildRunResult())[0]?.contents ?? '') as { units: { summary: Record<string, unknown> }[] };
    const rolling = parsed.units[1]?.summary;
    expect(rolling?.retention).toBe(0.666667);
    expect(rolling?.total_tokens).toBe(10_160);
    expect(parsed.units[0]?.summary.retention).toBeNull();
  });

  it('float noise does not change the bytes', () => {
    const a = buildRunResult();
    const b = buildRunResult();
    const first = a.units[0];
    const second = b.units[0];
    if (first === undefined || second === undefined) throw new Error('fixture has no units');
    first.summary = { ...first.summary, cached_prefix_share: 0.1 + 0.2 };
    second.summary = { ...second.summary, cached_prefix_share: 0.3 };
    expect(renderJson(a)[0]?.contents).toBe(renderJson(b)[0]?.contents);
  });
});

describe('storedForm', () => {
  it('is the result as read back from its result.json, made once per result', () => {
    const base = buildRunResult();
    const result = {
      ...base,
      units: base.units.map((unit, i) => ({
        ...unit,
        summary: { ...unit.summary, retention: 0.30724999, mean_context_tokens: i === 0 ? Number.NaN : -0 },
        options: { dropped: undefined, kept: [1.23456789, undefined, Infinity] },
      })),
    } as unknown as RunResult;
    const stored = storedForm(result);
    expect(stored).toStrictEqual(JSON.parse(JSON.stringify(result, roundFractions)));
    expect(storedForm(result)).toBe(stored);
    expect(storedForm(stored)).toBe(stored);
  });
});
