import { describe, expect, it } from 'vitest';
import { readTranscript } from '../../src/transcript/read.js';
import { generateProbes } from '../../src/probes/generate.js';
import { containsNormalised, gradeAnswer, normaliseAnswer } from '../../src/probes/grade.js';
import { listMessages, renderMessageText } from '../../src/probes/message-text.js';
import { isRetained } from '../../src/probes/retention.js';
import { probeSchema } from '../../src/transcript/probe-schema.js';
import { readProbe } from '../../src/simulator/reader.js';
import { leakedTokens } from '../../src/probes/leak.js';
import type { MessageEvent, Probe, Transcript } from '../../src/transcript/types.js';

const fixture = 'fixtures/probes/session.ctx.jsonl';

function answerOf(probe: Probe): string {
  const answer = probe.expected.anyOf?.[0];
  if (answer === undefined) throw new Error(`${probe.id} has no anyOf`);
  return answer;
}

function inlineTranscript(messages: Omit<MessageEvent, 'type'>[]): Transcript {
  return {
    header: { type: 'session', id: 'inline', dialect: 'openai' },
    events: messages.map((m) => ({ type: 'message', ...m })),
    file: 'inline',
    skipped: [],
    unknown: {},
  };
}

describe('latest-state probes', () => {
  it("ask a file's last change only, with the values it replaced as stale", () => {
    const edit = (id: string, value: string, old: string): Omit<MessageEvent, 'type'> => ({
      id,
      role: 'assistant',
      text: '',
      toolCalls: [{ id: `c-${id}`, name: 'Edit', args: { file_path: 'deploy/settings.yaml', old_string: old, new_string: value } }],
    });
    const result = (id: string): Omit<MessageEvent, 'type'> => ({ id: `r-${id}`, role: 'tool', toolCallId: `c-${id}`, toolName: 'Edit', text: 'updated' });
    const filler = Array.from({ length: 24 }, (_, i): Omit<MessageEvent, 'type'>[] => [
      { id: `f${i}`, role: 'assistant', text: `Checking item ${i} of the queue.` },
      { id: `u${i}`, role: 'user', text: `ok ${i}` },
    ]).flat();
    const transcript = inlineTranscript([
      { id: 'u', role: 'user', text: 'Tune the deployment.' },
      edit('a', 'replicas: 3', 'replicas: 1'),
      result('a'),
      edit('b', 'replicas: 7', 'replicas: 3'),
      result('b'),
      ...filler,
    ]);
    const state = generateProbes(transcript).filter((p) => p.question.startsWith('What did the agent change'));
    expect(state.map((p) => [p.question, answerOf(p), p.superseded])).toEqual([
      ['What did the agent change `settings.yaml` to with `Edit`?', 'replicas: 7', ['replicas: 3']],
    ]);
  });
});

describe('generateProbes on the fixture session', async () => {
  const transcript = await readTranscript(fixture);
  const messages = listMessages(transcript.events);
  const probes = generateProbes(transcript);
  const byAnswer = new Map(probes.map((p) => [answerOf(p), p]));

  it('finds facts of every kind', () => {
    expect(byAnswer.get('src/server/config.ts')?.kind).toBe('artifact');
    expect(byAnswer.get('tests/db/pool.test.ts')?.kind).toBe('artifact');
    // The latest state of a file: what the edit put in it.
    expect(byAnswer.get('createMemoryDatabase()')).toMatchObject({ kind: 'artifact', question: 'What did the agent change `setup.ts` to with `edit_file`?' });
    expect(byAnswer.get('run the test suite to see')?.kind).toBe('continuation');
    // A command line is all answer: no question may name its words (leak.ts); the sentence that
    // announces it, the line a reader reads on from (findable.ts), gives the hints.
    expect(byAnswer.get('npm test -- --reporter=dot')).toMatchObject({
      kind: 'continuation',
      question: 'Which command failed when the agent ran it with `bash`? (context: fine, suite)',
    });
    // The error line is all answer too.
    expect(byAnswer.has('Error: connect ECONNREFUSED 127.0.0.1:5432')).toBe(false);
    expect(byAnswer.get('5432')?.kind).toBe('recall');
    expect(byAnswer.get('pg-mem')?.kind).toBe('decision');
    expect(byAnswer.get('CI runners have no database service')?.kind).toBe('decision');
    expect(byAnswer.get('export the target schema name')?.kind).toBe('continuation');
  });

  it('drops a fact whose question cannot single out its own line', () => {
    // `KeyError: 'MIGRATION_TARGET'` stands alone on its line: every word on it is a piece of the
    // answer, which a question may not name, so no question anchors to that line alone.
    expect(byAnswer.has("KeyError: 'MIGRATION_TARGET'")).toBe(false);
    // Versions and hashes in tool output are trivia (issue 25): `api@2.4.1` and `9f3c2ab` are not asked.
    expect(byAnswer.has('2.4.1')).toBe(false);
    expect(byAnswer.has('9f3c2ab')).toBe(false);
  });

  it('skips an answer a later message repeats', () => {
    // The port is read at m04 and repeated in the last message: any context keeps it.
    expect(byAnswer.has('8437')).toBe(false);
    expect([...byAnswer.keys()].some((a) => a.includes('8437'))).toBe(false);
  });

  it('asks an answer the end of a long session repeats once, before the repeat is sent', () => {
    const filler = (n: number) =>
      Array.from({ length: n }, (_, i): Omit<MessageEvent, 'type'>[] => [
        { id: `f${i}`, role: 'assistant', text: `Checking item ${i} of the queue.` },
        { id: `u${i}`, role: 'user', text: `ok ${i}` },
      ]).flat();
    const session = (between: number) =>
      inlineTranscript([
        { id: 'u', role: 'user', text: 'Reproduce the parser bug first.' },
        {
          id: 'w',
          role: 'assistant',
          text: 'A script that feeds the parser bytes will show the failure.',
          toolCalls: [{ id: 'c1', name: 'bash', args: { command: "cat <<'EOF' > scripts/repro_bytes.py\nparse(b'header')\nEOF" } }],
        },
        { id: 'r', role: 'tool', toolCallId: 'c1', toolName: 'bash', text: '' },
        ...filler(between),
        { id: 'end', role: 'assistant', text: 'Done: scripts/repro_bytes.py reproduces it and the fix holds.' },
      ]);
    const asked = generateProbes(session(24)).find((p) => answerOf(p) === 'scripts/repro_bytes.py');
    // Written at step 0, visible from step 1, asked 10 steps later; the closing message is step 25.
    expect(asked?.ask).toEqual([{ step: 11 }]);
    expect(asked?.evidence).toEqual(['w']);
    // Repeated before its evidence is 10 steps old: every context still holds it, no probe.
    expect(generateProbes(session(6)).some((p) => answerOf(p) === 'scripts/repro_bytes.py')).toBe(false);
  });

  it('names every message that holds the answer as evidence, none of them recent', () => {
    const holds = (m: MessageEvent, answer: string): boolean => containsNormalised(normaliseAnswer(renderMessageText(m, { thinking: true })), answer);
    for (const probe of probes) {
      const answer = normaliseAnswer(answerOf(probe));
      expect(
        messages.filter((m) => holds(m, answer)).map((m) => m.id),
        probe.id,
      ).toEqual(probe.evidence);
      // One moment (a call and its results: no assistant message in between), or all before the last four messages.
      const positions = probe.evidence.map((id) => messages.findIndex((m) => m.id === id));
      const between = messages.slice((positions[0] ?? 0) + 1, (positions.at(-1) ?? 0) + 1);
      const oneMoment = between.every((m) => m.role !== 'assistant');
      expect(oneMoment || Math.max(...positions) < messages.length - 4, probe.id).toBe(true);
    }
    // The script's path is in the call and in the traceback of its result: one moment, two messages.
    expect(byAnswer.get('scripts/migrate.py')?.evidence).toEqual(['m09', 'm10']);
  });

  it('keeps only probes the reader answers from the whole session (the validity filter, reference.ts)', () => {
    const missed = probes.filter((probe) => {
      const read = readProbe([...messages, { type: 'message', id: 'q', role: 'user', text: probe.question }]);
      return !gradeAnswer(probe.expected, read.answer).correct;
    });
    expect(probes).toHaveLength(14);
    expect(missed.map(answerOf)).toEqual([]);
  });

  it('never puts the answer inside its question, and names where to look', () => {
    for (const probe of probes) {
      expect(containsNormalised(normaliseAnswer(probe.question), normaliseAnswer(answerOf(probe))), probe.question).toBe(false);
    }
    for (const probe of probes) expect(leakedTokens(probe.question, answerOf(probe)), probe.question).toEqual([]);
    expect(byAnswer.get('src/server/config.ts')?.question).toContain('`read_file`');
    expect(byAnswer.get('5432')?.question).toContain('`bash`');
  });

  it('writes valid, stable, unique probes asked after compactions and at the end (the session is shorter than askAfter)', () => {
    const ids = probes.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const probe of probes) {
      expect(probe.id).toMatch(new RegExp(`^gen-${probe.kind}-\\d+$`));
      expect(probe).toMatchObject({ ask: ['after-compaction', 'end'], origin: 'generated' });
      expect(probeSchema.parse(probe)).toEqual(probe);
      expect(gradeAnswer(probe.expected, `It was ${answerOf(probe)}.`).correct).toBe(true);
    }
    expect(ids).toContain('gen-artifact-1');
  });

  it('is deterministic', () => {
    expect(generateProbes(transcript)).toEqual(probes);
    expect(generateProbes(transcript, { max: 6, seed: 7 })).toEqual(generateProbes(transcript, { max: 6, seed: 7 }));
  });

  it('caps at max, sharing among kinds and spreading over the session', () => {
    const capped = generateProbes(transcript, { max: 8 });
    expect(capped).toHaveLength(8);
    expect(new Set(capped.map((p) => p.kind)).size).toBe(4);
    // Where each fact was read: its last evidence message (an earlier one may hold the answer too).
    const positions = capped.map((p) => messages.findIndex((m) => m.id === p.evidence.at(-1)));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    // Taking the first eight candidates would stop at the eighth one's message; spreading goes further.
    const firstEightEnd = messages.findIndex((m) => m.id === probes[7]?.evidence.at(-1));
    expect(Math.max(...positions)).toBeGreaterThan(firstEightEnd);
    expect(generateProbes(transcript, { max: 0 })).toEqual([]);
  });

  it('lets the seed choose among candidates when capped', () => {
    const choices = new Set(Array.from({ length: 10 }, (_, seed) => JSON.stringify(generateProbes(transcript, { max: 6, seed }).map(answerOf))));
    expect(choices.size).toBeGreaterThan(1);
  });

  it('yields probes whose retention a truncated context loses', () => {
    const texts = messages.map((m) => renderMessageText(m));
    const evidenceOf = (p: Probe) => texts.filter((_, i) => p.evidence.includes(messages[i]?.id ?? ''));
    for (const probe of probes) expect(isRetained(probe, texts, evidenceOf(probe)), probe.id).toBe(true);
    const config = byAnswer.get('src/server/config.ts') as Probe;
    expect(isRetained(config, texts.slice(-4), evidenceOf(config))).toBe(false);
  });
});

describe('generateProbes on decisions', () => {
  it('reads "I\'ll use", "decided to" and "because", ignoring thinking and repeated answers', () => {
    const transcript = inlineTranscript([
      { id: 'u1', role: 'user', text: 'Set up the cache layer.' },
      {
        id: 'a1',
        role: 'assistant',
        text: "I'll use Redis Streams for the job queue. We decided to shard the cache by tenant because tenants differ wildly in size.",
        thinking: 'Maybe use memcached?',
      },
      { id: 'a2', role: 'assistant', text: 'I will switch to sqlite for local runs.' },
      { id: 'a3', role: 'assistant', text: 'Done. Local runs use sqlite now.' },
    ]);
    const answers = generateProbes(transcript).map((p) => [p.kind, answerOf(p)]);
    expect(answers).toEqual([
      ['decision', 'Redis Streams'],
      ['continuation', 'use Redis Streams for the job'],
      ['decision', 'shard the cache by tenant'],
      ['decision', 'tenants differ wildly in size'],
    ]);
  });
});

describe('generateProbes on next steps and code spans', () => {
  it('drops code quotes from a phrase and a dangling last word', () => {
    const transcript = inlineTranscript([
      { id: 'a1', role: 'assistant', text: "I'll use the `--lenient` flag for imports. Next, I will rewrite the importer registry from the ground up." },
      { id: 'a2', role: 'assistant', text: 'Done.' },
    ]);
    expect(generateProbes(transcript).map(answerOf)).toEqual(['--lenient flag', 'use the --lenient flag for imports', 'rewrite the importer registry']);
  });
});

/** `n` steps of talk that holds none of the facts under test, so that they are not the session's last words. */
function fillerSteps(n: number): Omit<MessageEvent, 'type'>[] {
  return Array.from({ length: n }, (_, i): Omit<MessageEvent, 'type'>[] => [
    { id: `f${i}`, role: 'assistant', text: `Checking item ${i} of the queue.` },
    { id: `u${i}`, role: 'user', text: `ok ${i}` },
  ]).flat();
}

describe('generateProbes on Chinese prose', () => {
  it('reads setting out, next steps, choices and reasons, asked in English with the Chinese span as the answer', () => {
    const transcript = inlineTranscript([
      { id: 'u1', role: 'user', text: '幫我把快取層整理一下' },
      { id: 'a1', role: 'assistant', text: '好的，首先讓我檢查現有的快取設定。' },
      { id: 'a2', role: 'assistant', text: '我們決定改用 Redis Streams 處理佇列，因為記憶體版本在重啟後會遺失工作。' },
      { id: 'a3', role: 'assistant', text: '接下來我會撰寫遷移腳本。' },
      { id: 'a4', role: 'assistant', text: '### 1. 逾時問題分析\n- **原因**: 舊版設定把數值寫死在程式碼裡' },
      ...fillerSteps(14),
    ]);
    const probes = generateProbes(transcript);
    expect(probes.map((p) => [p.kind, answerOf(p)])).toEqual([
      ['continuation', '檢查現有的快取設定'],
      ['decision', 'Redis Streams 處理佇列'],
      ['decision', '記憶體版本在重啟後會遺失工作'],
      ['continuation', '撰寫遷移腳本'],
      ['decision', '舊版設定把數值寫死在程式碼裡'],
    ]);
    for (const probe of probes) {
      expect(probe.question).toMatch(/^What /);
      expect(leakedTokens(probe.question, answerOf(probe)), probe.question).toEqual([]);
      // The simulated reader finds it from the whole session (the validity filter at generation).
      const read = readProbe([
        ...transcript.events.filter((e): e is MessageEvent => e.type === 'message'),
        { type: 'message', id: 'q', role: 'user', text: probe.question },
      ]);
      expect(gradeAnswer(probe.expected, read.answer).correct, probe.question).toBe(true);
    }
  });

  it('reads nothing from a sentence that only mentions a choice word (`時決定`: is determined when)', () => {
    const transcript = inlineTranscript([
      { id: 'a1', role: 'assistant', text: 'Go 版本在 go mod init 時決定，根據當前安裝的版本自動設定。' },
      ...fillerSteps(14),
    ]);
    expect(generateProbes(transcript).filter((p) => p.kind === 'decision')).toEqual([]);
  });
});

describe('generateProbes on plans', () => {
  it('asks for the last in_progress item with a question that holds none of its words', () => {
    const plan = (id: string, current: string) => ({
      id,
      role: 'assistant' as const,
      text: '',
      toolCalls: [
        {
          id: `c-${id}`,
          name: 'update_plan',
          args: {
            plan: [
              { step: 'Review the spec', status: 'completed' },
              { step: current, status: 'in_progress' },
            ],
          },
        },
      ],
    });
    const transcript = inlineTranscript([
      { id: 'u', role: 'user', text: 'Rework the spec.' },
      plan('p1', 'Re-read updated spec and summarise the changes'),
      { id: 'r-p1', role: 'tool', toolCallId: 'c-p1', toolName: 'update_plan', text: 'Plan updated' },
      ...fillerSteps(14),
    ]);
    const [probe] = generateProbes(transcript).filter((p) => p.kind === 'continuation');
    expect(probe?.question).toBe('What had status in_progress in the last `update_plan`?');
    expect(answerOf(probe as Probe)).toBe('Re-read updated spec and summarise the changes');
  });
});

describe('generateProbes on questions', () => {
  it('asks no question twice: two facts of one line with the same words are dropped after the first', () => {
    const transcript = inlineTranscript([
      { id: 'a1', role: 'assistant', text: 'Let me check the pool size. Let me check the queue depth.' },
      ...fillerSteps(14),
    ]);
    const questions = generateProbes(transcript).map((p) => p.question);
    expect(questions.length).toBeGreaterThan(0);
    expect(new Set(questions).size).toBe(questions.length);
  });

  it('reads a fronted "Because X, Y" as a reason', () => {
    const transcript = inlineTranscript([
      { id: 'a1', role: 'assistant', text: 'Because the nightly job still writes to the legacy store, removing the bucket breaks the export.' },
      ...fillerSteps(14),
    ]);
    expect(generateProbes(transcript).map((p) => [p.kind, answerOf(p)])).toContainEqual(['decision', 'nightly job still writes to the legacy store']);
  });
});
