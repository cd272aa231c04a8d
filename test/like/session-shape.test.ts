import { describe, expect, it } from 'vitest';
import { fitLogFiles, generateLikeSessions } from '../../src/like/index.js';
import { observeLog } from '../../src/like/observe.js';
import { LEVELS } from '../../src/like/draw.js';
import { countTokens } from '../../src/tokens/tokenizer.js';
import { loadTranscript } from '../../src/scenario/load-transcript.js';
import type { Transcript } from '../../src/transcript/types.js';

/** Two mini-swe-agent logs: a PR description first, then 96-token format-error replies; a directory listing and the files read come first. */
const MINI = ['fixtures/real/mini-swe-agent/django__django-15380.traj.json', 'fixtures/real/mini-swe-agent/sympy__sympy-15976.traj.json'];

const messagesOf = (t: Transcript) => t.events.flatMap((e) => (e.type === 'message' ? [e] : []));
const tokens = (text: string): number => countTokens('o200k_base', text);
const constant = (value: number): number[] => LEVELS.map(() => value);
const load = (path: string): Promise<Transcript> => loadTranscript({ kind: 'file', path, lenient: true }, 0);
const meanOf = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);

describe('a session drawn like mini-swe-agent logs', () => {
  it('opens with a request drawn from the logs first requests, the later ones from the later requests', async () => {
    const fit = await fitLogFiles(MINI);
    // The task statements, over a thousand tokens, apart from the replies to a malformed answer.
    expect(fit.task.firstTokens[0]).toBeGreaterThan(1000);
    expect(fit.task.userTokens.at(-1)).toBeLessThan(200);
    const task = { ...fit.task, firstTokens: constant(1500), userTokens: constant(96) };
    for (const session of generateLikeSessions({ ...fit, task }, { count: 4, seed: 1, steps: 60 })) {
      const [first, ...later] = messagesOf(session)
        .filter((m) => m.role === 'user')
        .map((m) => tokens(m.text));
      expect(first).toBeGreaterThan(1400);
      // A later request may hold a planted needed fact besides its drawn words.
      for (const size of later) expect(size).toBeLessThan(300);
    }
  });

  it('titles and sums up its tasks as the importer does its logs', async () => {
    const fit = await fitLogFiles(MINI);
    const real = await load(MINI[0] as string);
    const realTasks = real.events.flatMap((e) => (e.type === 'task' && e.status === 'completed' ? [e] : []));
    for (const session of generateLikeSessions(fit, { count: 2, seed: 1, steps: 60 })) {
      const requests = messagesOf(session).filter((m) => m.role === 'user');
      const tasks = session.events.flatMap((e) => (e.type === 'task' && e.status === 'completed' ? [e] : []));
      expect(tasks.length).toBeGreaterThan(0);
      // A request's first hundred characters on one line, as transcript/tasks/derive.ts writes a title ("task 1" before).
      expect(tasks[0]?.title).toBe(`${(requests[0]?.text ?? '').replace(/\s+/g, ' ').trim().slice(0, 99)}…`);
      for (const t of tasks) expect((t.resultSummary ?? '').length).toBeLessThanOrEqual(400);
    }
    for (const t of realTasks) expect((t.title ?? '').length).toBeLessThanOrEqual(100);
  });

  it('weighs its tool results by the phase of the session as the logs do', async () => {
    const logs = await Promise.all(MINI.map(load));
    // A log's first fifth reads the tree and the files it will change.
    const phases = logs.map((l) => observeLog(l).toolPhases);
    for (const p of phases) expect(p).toHaveLength(5);
    const fit = await fitLogFiles(MINI);
    expect(meanOf(fit.toolOutput.phases)).toBeCloseTo(1, 2);
    const weighed = { ...fit, toolOutput: { ...fit.toolOutput, phases: [3, 0.5, 0.5, 0.5, 0.5] } };
    const even = { ...fit, toolOutput: { ...fit.toolOutput, phases: [] } };
    const firstOverRest = (f: typeof fit): number => {
      const ratios = generateLikeSessions(f, { count: 4, seed: 2, steps: 80 }).map((s) => {
        const results = messagesOf(s)
          .filter((m) => m.role === 'tool')
          .map((m) => tokens(m.text));
        const fifth = Math.ceil(results.length / 5);
        return meanOf(results.slice(0, fifth)) / meanOf(results.slice(fifth));
      });
      return meanOf(ratios);
    };
    // Drawn alike at every step, the first fifth's results came to about the rest's.
    expect(firstOverRest(weighed)).toBeGreaterThan(2.5 * firstOverRest(even));
  });
});
