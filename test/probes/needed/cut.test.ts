import { describe, expect, it } from 'vitest';
import { firstShareOfSteps } from '../../../src/probes/needed/cut.js';
import type { MessageEvent, Transcript, TranscriptEvent } from '../../../src/transcript/types.js';
import { cli } from '../../helpers/cli.js';

let counter = 0;
const message = (role: MessageEvent['role'], text: string): MessageEvent => ({ type: 'message', id: `m${++counter}`, role, text });
const transcriptOf = (events: TranscriptEvent[]): Transcript => ({
  header: { type: 'session', id: 's', dialect: 'anthropic' },
  events,
  file: 'hand-made',
  skipped: [],
  unknown: {},
});

describe('firstShareOfSteps', () => {
  const session = transcriptOf([
    message('user', 'Go.'),
    ...Array.from({ length: 10 }, (_, i) => [message('assistant', `step ${i}`), message('tool', `result ${i}`)]).flat(),
  ]);
  const texts = (t: Transcript): string[] => t.events.map((e) => (e.type === 'message' ? e.text : e.type));

  it('keeps the first share of the steps and what came back to them, nothing of the next step', () => {
    const half = firstShareOfSteps(session, 0.5);
    expect(texts(half)).toEqual(['Go.', 'step 0', 'result 0', 'step 1', 'result 1', 'step 2', 'result 2', 'step 3', 'result 3', 'step 4', 'result 4']);
    expect(firstShareOfSteps(session, 0.75).events.filter((e) => e.type === 'message' && e.role === 'assistant')).toHaveLength(7);
  });

  it('returns the whole transcript for a share of 1', () => {
    expect(firstShareOfSteps(session, 1)).toBe(session);
  });
});

describe('ctxbench probes needed --cut', () => {
  const log = 'fixtures/real/mini-swe-agent/django__django-12050.traj.json';
  interface Use {
    useStep: number;
  }
  const usesOf = async (args: string[]): Promise<Use[]> =>
    (JSON.parse((await cli(['probes', 'needed', log, '--json', ...args])).stdout) as { uses: Use[] }).uses;

  it('lists the uses of the log cut after that share of its steps: only uses before the cut', async () => {
    const whole = await usesOf([]);
    const half = await usesOf(['--cut', '0.5']);
    expect(half.length).toBeGreaterThan(0);
    expect(half.length).toBeLessThan(whole.length);
    // The log has 33 steps: the first 16 are read.
    expect(half.every((u) => u.useStep < 16)).toBe(true);
    expect(whole.some((u) => u.useStep >= 16)).toBe(true);
  });

  it('exits 2 on a share that is not above 0 and at most 1', async () => {
    for (const bad of ['0', '1.5', 'half']) {
      const run = await cli(['probes', 'needed', log, '--cut', bad]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--cut');
    }
  });
});
