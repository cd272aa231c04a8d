import { describe, expect, it } from 'vitest';
import { NeededMeter, classifyNeeded, prepareNeededSet } from '../../../src/probes/needed/measure.js';
import { isWrittenByStrategy } from '../../../src/probes/needed/held.js';
import { FactIndex } from '../../../src/probes/needed/fact-index.js';
import { neededFigures } from '../../../src/metrics/needed.js';
import { diffContexts, wholeContext } from '../../../src/transcript/context-diff.js';
import { retrievalHint } from '../../../src/strategies/helpers/hints.js';
import type { Archive } from '../../../src/strategies/types.js';
import type { ContextMessage, MessageEvent, Transcript } from '../../../src/transcript/types.js';
import type { NeededUse } from '../../../src/probes/needed/types.js';

const user: MessageEvent = { type: 'message', id: 'u1', role: 'user', text: 'Keep the port at 8437 and use DEPLOY_TOKEN_NAME.' };
const call: MessageEvent = {
  type: 'message',
  id: 'a1',
  role: 'assistant',
  text: '',
  toolCalls: [{ id: 'c1', name: 'Read', args: { file_path: '/srv/app/config.yaml' } }],
};
const result: MessageEvent = {
  type: 'message',
  id: 't1',
  role: 'tool',
  toolCallId: 'c1',
  text: 'listen: 8437\nworker_pool_size: 12\ncache_dir: /var/cache/app-v2',
};
const reply: MessageEvent = { type: 'message', id: 'a2', role: 'assistant', text: 'Read it.' };
const later: MessageEvent = { type: 'message', id: 'a3', role: 'assistant', text: 'Using /var/cache/app-v2 and DEPLOY_TOKEN_NAME.' };
const transcript: Transcript = {
  header: { type: 'session', id: 's', dialect: 'openai' },
  events: [user, call, result, reply, later],
  file: 'test',
  skipped: [],
  unknown: {},
};

const use = (fact: string, sourceIndex: number, useStep: number): NeededUse => ({
  fact,
  kind: 'identifier',
  sourceIndex,
  sourceStep: 1,
  useIndex: 4,
  useStep,
});

// The tool result's value, the user's constraint: both used at step 2.
const uses = [use('/var/cache/app-v2', 2, 2), use('DEPLOY_TOKEN_NAME', 0, 2)];

function emptyArchive(stored: Record<string, MessageEvent[]> = {}): Pick<Archive, 'get' | 'lookup'> {
  return { get: () => undefined, lookup: (key) => stored[key] };
}

/** The outcomes of the uses of `uses` at step 2 on a context sent there. */
function outcomesOn(context: readonly ContextMessage[], archive = emptyArchive()) {
  const meter = new NeededMeter(prepareNeededSet(transcript, uses));
  meter.sent(2, wholeContext(context), archive);
  return meter.records().map((r) => r.outcome);
}

describe('needed outcome at the step of use', () => {
  it('kept: the transcript messages hold both facts verbatim', () => {
    expect(outcomesOn([user, call, result, reply])).toEqual(['kept', 'kept']);
  });

  it('kept: a cut of the tool result (it replaces it) still holds the value', () => {
    const cut: ContextMessage = { ...result, text: 'cache_dir: /var/cache/app-v2 [cut]', replaces: [result.id] };
    expect(outcomesOn([user, call, cut, reply])).toEqual(['kept', 'kept']);
  });

  it('summarized: only a summary the strategy wrote holds them', () => {
    const summary: ContextMessage = {
      type: 'message',
      id: 'summary-1',
      role: 'user',
      text: 'Summary: cache in /var/cache/app-v2; token DEPLOY_TOKEN_NAME.',
      synthetic: 'codex-rebuild summary',
    };
    expect(outcomesOn([summary, reply])).toEqual(['summarized', 'summarized']);
  });

  it('recoverable: the call that read the file is still sent, or a retrieval hint leads to the output', () => {
    const cleared: ContextMessage = { ...result, text: '[tool result cleared]', replaces: [result.id] };
    expect(outcomesOn([call, cleared, reply])).toEqual(['recoverable', 'lost']);
    const pointer: ContextMessage = { type: 'message', id: 'tomb', role: 'user', text: `old turns ${retrievalHint('task/1')}`, synthetic: 'tombstone' };
    expect(outcomesOn([pointer, reply], emptyArchive({ 'task/1': [user, result] }))).toEqual(['recoverable', 'recoverable']);
  });

  it('lost: nothing in the context holds or points to them', () => {
    expect(outcomesOn([reply])).toEqual(['lost', 'lost']);
  });

  it('unanswered: the step crashed, or the replay never reached it', () => {
    const set = prepareNeededSet(transcript, [...uses, use('worker_pool_size', 2, 5)]);
    const meter = new NeededMeter(set);
    meter.crashed(2);
    expect(meter.records().map((r) => r.outcome)).toEqual(['unanswered', 'unanswered', 'unanswered']);
    expect(neededFigures(meter.records())).toEqual({ facts: 0, recall: null, recoverable: null, lost: null });
  });

  it('counts along the step diffs: a fact dropped at one step and back at a later one', () => {
    const set = prepareNeededSet(transcript, [use('/var/cache/app-v2', 2, 2), use('/var/cache/app-v2', 2, 3), use('/var/cache/app-v2', 2, 4)]);
    const meter = new NeededMeter(set);
    const first = [user, call, result];
    const second = [user, reply];
    meter.sent(2, wholeContext(first), emptyArchive());
    meter.sent(3, diffContexts(first, second), emptyArchive());
    meter.sent(4, diffContexts(second, [...second, result]), emptyArchive());
    expect(meter.records().map((r) => r.outcome)).toEqual(['kept', 'lost', 'kept']);
    expect(neededFigures(meter.records())).toEqual({ facts: 3, recall: 2 / 3, recoverable: 0, lost: 1 / 3 });
  });
});

describe('classifyNeeded', () => {
  it('prefers a copy to a summary, a summary to a pointer', () => {
    expect(classifyNeeded({ copies: 1, written: 1 }, () => true)).toBe('kept');
    expect(classifyNeeded({ copies: 0, written: 2 }, () => true)).toBe('summarized');
    expect(classifyNeeded({ copies: 0, written: 0 }, () => true)).toBe('recoverable');
    expect(classifyNeeded({ copies: 0, written: 0 }, () => false)).toBe('lost');
  });
});

describe('strategy-written messages', () => {
  it('are synthetic messages that neither replace a message nor copy one back', () => {
    const base = { type: 'message' as const, id: 'm', role: 'user' as const, text: 'x' };
    expect(isWrittenByStrategy({ ...base, synthetic: 'tri-modal recap' })).toBe(true);
    expect(isWrittenByStrategy({ ...base, synthetic: 'scratchpad' })).toBe(true);
    expect(isWrittenByStrategy({ ...base, synthetic: 'tombstone', replaces: ['t1'] })).toBe(false);
    expect(isWrittenByStrategy({ ...base, synthetic: 'claude-code-autocompact file' })).toBe(false);
    expect(isWrittenByStrategy({ ...base, synthetic: 'recorded-restored' })).toBe(false);
    expect(isWrittenByStrategy(base)).toBe(false);
  });
});

describe('FactIndex', () => {
  it('finds every fact a text holds in one pass, short facts and escaped text included', () => {
    const index = new FactIndex(['/srv/app', 'app', 'DEBUG_MODE', 'pool_size']);
    expect(index.factsInText('open /srv/app/x; set pool_size')).toEqual([0, 1, 3]);
    expect(index.factsInText('flags:\\nDEBUG_MODE=1')).toEqual([2]);
    expect(index.factsInText('nothing here')).toEqual([]);
  });

  it('finds facts that share their first characters, at the start and the end of a text, and outside the BMP', () => {
    const index = new FactIndex(['abcdef', 'abcdXY', '𝔘𝔫𝔦code', 'xyz1']);
    expect(index.factsInText('abcdef')).toEqual([0]);
    expect(index.factsInText('..abcdXY')).toEqual([1]);
    expect(index.factsInText('see 𝔘𝔫𝔦code and xyz1')).toEqual([2, 3]);
  });

  it('finds the same facts whether it searches each gram (a few) or reads each position (many)', () => {
    // 100 distinct grams: past the number searched one by one, so the text is read position by position.
    const many = Array.from({ length: 100 }, (_, i) => `k${String(i).padStart(3, '0')}_value`);
    const facts = ['abcdef', 'abcdXY', '𝔘𝔫𝔦code', 'xyz1', 'cd', ...many];
    const text = 'abcdef abcdXY k007_value k099_value k099_valu 𝔘𝔫𝔦cod cd xyz1k042_value\\nk050_value';
    const expected = facts.map((fact, i) => (text.includes(fact) || text.replace(/\\n/g, ' ').includes(fact) ? i : -1)).filter((i) => i >= 0);
    expect(expected.length).toBeGreaterThan(5);
    expect(new FactIndex(facts).factsInText(text)).toEqual(expected);
    const few = facts.slice(0, 5);
    expect(new FactIndex(few).factsInText(text)).toEqual(expected.filter((i) => i < 5));
  });
});
