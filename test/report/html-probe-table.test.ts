import { describe, expect, it } from 'vitest';
import { aggregateProbes } from '../../src/probes/aggregate.js';
import { renderProbeTable } from '../../src/report/html-probe-table.js';
import type { ProbeAnswer, ProbeOutcome, UnitResult } from '../../src/metrics/types.js';

/** One answer of probe `id` with its outcome (answered right when kept). */
function answer(id: string, outcome: ProbeOutcome, invalid = false): ProbeAnswer {
  return {
    probeId: id,
    kind: 'recall',
    question: `Q ${id}?`,
    expected: id,
    askedAt: 'end',
    step: 9,
    answer: outcome === 'kept' ? id : 'Not found in the context.',
    correct: outcome === 'kept',
    reason: '',
    retrieved: false,
    correctWithRetrieval: outcome === 'kept',
    retrievalTokens: 0,
    inputTokens: 10,
    outputTokens: 2,
    outcome,
    ...(invalid ? { invalid: true as const } : {}),
    ...(outcome === 'unanswered' ? { unanswered: true as const } : {}),
  };
}

function unitWith(strategy: string, answers: ProbeAnswer[]): UnitResult {
  const probes = [...new Set(answers.map((a) => a.probeId))].map((id) => ({ id, kind: 'recall' as const, source: 'output' as const }));
  const { figures: _figures, ...detail } = aggregateProbes({ probes, answers, retention: [], specifics: { paths: null, commands: null, numbers: null } });
  return { strategy, probes: detail } as unknown as UnitResult;
}

describe('renderProbeTable: outcome shares per strategy', () => {
  it('shows each strategy’s share of every outcome class, its invalid ask points and the probe mix', () => {
    const html = renderProbeTable([
      unitWith('full', [answer('a', 'kept'), answer('b', 'kept'), answer('c', 'kept', true), answer('d', 'kept')]),
      unitWith('rolling-window', [answer('a', 'kept'), answer('b', 'lost'), answer('c', 'stale'), answer('d', 'unanswered')]),
    ]);
    const row = (strategy: string): string => html.split('\n').find((line) => line.startsWith(`<tr><th scope="row">${strategy}</th>`)) ?? '';
    const cells = (strategy: string): string[] => [...row(strategy).matchAll(/<td class="num"[^>]*>([^<]*)<\/td>/g)].map((m) => m[1] ?? '');
    expect(html).toContain('<th scope="col">kept</th><th scope="col">paraphrased</th><th scope="col">recoverable</th>');
    // kept, paraphrased, recoverable, stale, contradicted, lost, unanswered, ask points, invalid
    expect(cells('full')).toEqual(['100 %', '–', '–', '–', '–', '–', '–', '4', '1']);
    expect(cells('rolling-window')).toEqual(['25 %', '–', '–', '25 %', '–', '25 %', '25 %', '4', '0']);
    expect(html).toContain('4 probes: 4 recall; evidence in tool output 4, in the agent’s own words 0');
  });
});
