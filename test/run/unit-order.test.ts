import { describe, expect, it } from 'vitest';
import { longestFirst, unitQueue } from '../../src/run/unit-order.js';
import { scenarioKey, type PlannedUnit } from '../../src/run/plan.js';
import type { PreparedScenario } from '../../src/run/prepared-scenario.js';
import type { TranscriptEvent, Transcript } from '../../src/transcript/types.js';

/** A transcript of `steps` rounds of a user message of `chars` characters and an assistant reply. */
function transcript(steps: number, chars: number): Transcript {
  const events: TranscriptEvent[] = [];
  for (let i = 0; i < steps; i++) {
    events.push({ type: 'message', id: `u${i}`, role: 'user', text: 'x'.repeat(chars) });
    events.push({ type: 'message', id: `a${i}`, role: 'assistant', text: '' });
  }
  return { header: { type: 'header', version: 1, id: 's', dialect: 'openai' }, events } as unknown as Transcript;
}

function unit(index: number, file: string): PlannedUnit {
  return { index, scenario: { file, overrides: {} }, spec: { name: 'full', label: `full-${index}` } } as unknown as PlannedUnit;
}

describe('the order worker threads take units in', () => {
  it('puts the units of the heaviest sessions first and keeps plan order among equals', () => {
    const units = [unit(0, 'short.yaml'), unit(1, 'long.yaml'), unit(2, 'short.yaml'), unit(3, 'long.yaml'), unit(4, 'unknown.yaml')];
    const prepared = new Map<string, PreparedScenario>([
      [scenarioKey({ file: 'short.yaml', overrides: {} }), { transcript: transcript(10, 100) } as PreparedScenario],
      [scenarioKey({ file: 'long.yaml', overrides: {} }), { transcript: transcript(5, 1000) } as PreparedScenario],
    ]);
    // Each step re-sends the context so far: long 1000 × (1+…+5) = 15,000 characters; short 100 × (1+…+10) = 5,500.
    expect(longestFirst(units, prepared).map((u) => u.index)).toEqual([1, 3, 0, 2, 4]);
  });

  it('weighs a scenario of several logs by all of them', () => {
    const units = [unit(0, 'one.yaml'), unit(1, 'many.yaml')];
    const prepared = new Map<string, PreparedScenario>([
      [scenarioKey({ file: 'one.yaml', overrides: {} }), { transcript: transcript(3, 200) } as PreparedScenario],
      [
        scenarioKey({ file: 'many.yaml', overrides: {} }),
        { transcript: transcript(3, 100), logs: [{ transcript: transcript(3, 100) }, { transcript: transcript(3, 100) }] } as PreparedScenario,
      ],
    ]);
    // one: 200 × (1+2+3) = 1,200; many: two logs of 100 × (1+2+3) = 1,200 — a tie keeps plan order; a third log breaks it.
    expect(longestFirst(units, prepared).map((u) => u.index)).toEqual([0, 1]);
    (prepared.get(scenarioKey({ file: 'many.yaml', overrides: {} }))?.logs as unknown[]).push({ transcript: transcript(2, 100) });
    expect(longestFirst(units, prepared).map((u) => u.index)).toEqual([1, 0]);
  });

  it('gives each thread the units of the scenarios it holds, a new scenario to a new thread, and the rest to whoever is free', () => {
    const units = [unit(0, 'short.yaml'), unit(1, 'long.yaml'), unit(2, 'short.yaml'), unit(3, 'long.yaml'), unit(4, 'long.yaml')];
    const prepared = new Map<string, PreparedScenario>([
      [scenarioKey({ file: 'short.yaml', overrides: {} }), { transcript: transcript(10, 100) } as PreparedScenario],
      [scenarioKey({ file: 'long.yaml', overrides: {} }), { transcript: transcript(5, 1000) } as PreparedScenario],
    ]);
    const queue = unitQueue(units, prepared);
    const first = new Set<string>();
    const second = new Set<string>();
    const take = (held: Set<string>) => {
      const next = queue.next(held);
      if (next !== undefined) held.add(scenarioKey(next.scenario));
      return next?.index;
    };
    // Plain heaviest-first would hand both threads a unit of long.yaml.
    expect([take(first), take(second)]).toEqual([1, 0]);
    expect([take(second), take(second)]).toEqual([2, 3]);
    expect([take(first), take(first)]).toEqual([4, undefined]);
  });

  it('takes only units of ready scenarios when told which are ready', () => {
    const units = [unit(0, 'short.yaml'), unit(1, 'long.yaml'), unit(2, 'short.yaml')];
    const prepared = new Map<string, PreparedScenario>([
      [scenarioKey({ file: 'short.yaml', overrides: {} }), { transcript: transcript(10, 100) } as PreparedScenario],
      [scenarioKey({ file: 'long.yaml', overrides: {} }), { transcript: transcript(5, 1000) } as PreparedScenario],
    ]);
    const queue = unitQueue(units, prepared);
    const ready = new Set<string>();
    expect(queue.next(new Set(), ready)).toBeUndefined();
    ready.add(scenarioKey({ file: 'short.yaml', overrides: {} }));
    expect([queue.next(new Set(), ready)?.index, queue.next(new Set(), ready)?.index, queue.next(new Set(), ready)?.index]).toEqual([0, 2, undefined]);
    ready.add(scenarioKey({ file: 'long.yaml', overrides: {} }));
    expect(queue.next(new Set(), ready)?.index).toBe(1);
  });
});
