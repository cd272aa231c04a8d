import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importClaudeSidechains } from '../../src/transcript/claude-sidechains.js';
import { importTranscript } from '../../src/transcript/importers/index.js';
import { runSuite } from '../../src/run/run-suite.js';
import { InputError } from '../../src/errors.js';
import { claudeAssistant, claudeUser } from './importers/samples.js';
import { jsonl, messagesOf, writeTemp, expectCanonical } from './importers/helpers.js';
import { writeFiles } from '../helpers/temp.js';

/** A main session whose Task call ran a subagent of two model calls, written into the same file. */
const side = (record: Record<string, unknown>, parentUuid: string | null): Record<string, unknown> => ({ ...record, isSidechain: true, parentUuid });
const session = jsonl(
  claudeUser('u1', 'Survey the repo.'),
  claudeAssistant('a1', 'msg_1', [{ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'List the C files.' } }], {
    input_tokens: 900,
    output_tokens: 20,
  }),
  side(claudeUser('s1', 'List the C files.\nReport their names.'), null),
  side(
    claudeAssistant('s2', 'msg_s1', [{ type: 'tool_use', id: 'toolu_ls', name: 'Bash', input: { command: 'ls *.c' } }], {
      input_tokens: 400,
      output_tokens: 10,
    }),
    's1',
  ),
  side(claudeUser('s3', [{ type: 'tool_result', tool_use_id: 'toolu_ls', content: 'a.c\nb.c' }]), 's2'),
  side(claudeAssistant('s4', 'msg_s2', [{ type: 'text', text: 'a.c and b.c' }], { input_tokens: 450, output_tokens: 8 }), 's3'),
  claudeUser('u2', [{ type: 'tool_result', tool_use_id: 'toolu_task', content: 'a.c and b.c' }]),
  claudeAssistant('a2', 'msg_2', [{ type: 'text', text: 'Two C files.' }], { input_tokens: 1000, output_tokens: 5 }),
);

describe('Claude Code subagent conversations (sidechains)', () => {
  it('are left out of the main context and come back as transcripts of their own', async () => {
    const file = writeTemp('session.jsonl', session);
    const main = await importTranscript(file);
    expect(messagesOf(main).map((m) => m.id)).toEqual(['u1', 'msg_1', 'u2/toolu_task', 'msg_2']);
    expect(main.unknown).toEqual({ 'user (sidechain)': 2, 'assistant (sidechain)': 2 });

    const [sidechain, ...more] = await importClaudeSidechains(file);
    expect(more).toEqual([]);
    if (sidechain === undefined) throw new Error('one sidechain expected');
    expect(messagesOf(sidechain).map((m) => [m.id, m.role])).toEqual([
      ['s1', 'user'],
      ['msg_s1', 'assistant'],
      ['s3/toolu_ls', 'tool'],
      ['msg_s2', 'assistant'],
    ]);
    expect(messagesOf(sidechain)[3]?.usage).toEqual({ input: 450, output: 8 });
    expect(sidechain.header.id).toBe(`${main.header.id}/sidechain-1`);
    expect(sidechain.header.title).toBe('Subagent conversation: List the C files.');
    expect(sidechain.unknown).toEqual({});
    expectCanonical(sidechain);
  });

  it('finds the 3 and 1 subagents of the long real sessions: 88 and 11 model calls', async () => {
    const calls = async (name: string): Promise<number[]> =>
      (await importClaudeSidechains(join('fixtures/real/claude-code-long', name))).map((t) => messagesOf(t).filter((m) => m.role === 'assistant').length);
    expect(await calls('vsla-5f8cbb78.jsonl')).toEqual([13, 27, 48]);
    expect(await calls('vsla-0a725fb5.jsonl')).toEqual([11]);
  });

  it('with `sidechains: include`, a scenario replays each subagent beside the main session', async () => {
    const dir = writeFiles({ 'session.jsonl': session, 'both.yaml': 'name: both\ntranscript: session.jsonl\nsidechains: include\nstrategies: [full]\n' });
    const result = await runSuite({ scenarios: [join(dir, 'both.yaml')] });
    const [full] = result.units;
    expect(result.scenarios[0]).toMatchObject({ steps: 4, logs: 2 });
    expect(full?.logs?.map((log) => [log.id.replace(/^.*\//, ''), log.firstStep, log.summary.steps])).toEqual([
      ['sess-1', 0, 2],
      ['sidechain-1', 2, 2],
    ]);
    expect(full?.summary).toMatchObject({ steps: 4, steps_completed: 4, logs: 2, crashed_logs: 0 });
  });

  it('refuses `sidechains: include` on a log of another format, naming the field', async () => {
    const log = join(process.cwd(), 'fixtures/real/swe-agent/marshmallow-1867.function-calling.traj');
    const dir = writeFiles({ 'x.yaml': `name: x\ntranscript: ${log}\nsidechains: include\n` });
    const error = await runSuite({ scenarios: [join(dir, 'x.yaml')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).location.field).toBe('sidechains');
  });
});
