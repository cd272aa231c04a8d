import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { register } from '../../../src/cli/commands/import.js';
import { InputError } from '../../../src/errors.js';
import { writeTemp } from './helpers.js';
import { SAMPLES } from './samples.js';

/** Runs `ctxbench import ...` in-process and returns what it printed. */
async function runImport(args: string[]): Promise<string> {
  const program = new Command('ctxbench').exitOverride();
  register(program);
  const printed: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    await program.parseAsync(['import', ...args], { from: 'user' });
  } finally {
    spy.mockRestore();
  }
  return printed.join('');
}

afterEach(() => vi.restoreAllMocks());

describe('ctxbench import', () => {
  it('with --sidechains, writes each subagent conversation of a Claude Code session beside it', async () => {
    const out = join(dirname(writeTemp('x', '')), 'vsla.ctx.jsonl');
    const printed = await runImport(['fixtures/real/claude-code-long/vsla-0a725fb5.jsonl', '--sidechains', '-o', out]);
    expect(printed).toContain('messages 403, steps 201, tool calls 194');
    const sidechain = readFileSync(join(dirname(out), 'vsla.sidechain-1.ctx.jsonl'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(JSON.parse(sidechain[0]!)).toMatchObject({ type: 'session', id: '0a725fb5-6378-432a-9e84-9f3f49d4043d/sidechain-1' });
    // 27 messages and the task its one user request opens (src/transcript/tasks/).
    expect(sidechain).toHaveLength(1 + 27 + 1);
  });

  it('writes the canonical transcript and prints what it holds', async () => {
    const out = join(dirname(writeTemp('x', '')), 'session.ctx.jsonl');
    const printed = await runImport(['fixtures/real/codex/vibecoding-session.jsonl', '-o', out]);
    expect(printed).toContain('messages 40, steps 19, tool calls 19');
    expect(printed).toContain('unknown types event_msg:patch_apply_end ×2');
    expect(printed).toContain('skipped lines 0');
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'session', id: '01996135-afde-7911-97f0-d863511eca56', source: { format: 'codex' } });
    // 40 messages and 9 task events read from the 4 update_plan calls (src/transcript/tasks/).
    expect(lines).toHaveLength(1 + 40 + 9);
  });

  it('skips broken lines under --lenient and lists them', async () => {
    const file = writeTemp('session.jsonl', `${SAMPLES['claude-code'].text}{"broken":\n`);
    const out = join(dirname(file), 'out.ctx.jsonl');
    await expect(runImport([file, '-o', out])).rejects.toBeInstanceOf(InputError);
    const printed = await runImport(['--lenient', '--from', 'claude-code', file, '-o', out]);
    expect(printed).toContain('skipped lines 1');
    expect(printed).toMatch(/line 7: truncated last line: invalid JSON/);
  });
});
