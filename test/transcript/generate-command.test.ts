import { Command } from 'commander';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { register } from '../../src/cli/commands/generate.js';
import { UsageError } from '../../src/errors.js';
import { readTranscript } from '../../src/transcript/read.js';
import { countSteps } from '../../src/transcript/structure.js';
import { generateSession } from '../../src/transcript/synthetic/generate.js';
import { serializeTranscript } from '../../src/transcript/write.js';

// The `ctxbench generate` command (src/cli/commands/generate.ts), driven through commander.
const dir = mkdtempSync(join(tmpdir(), 'ctxbench-generate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

async function runGenerate(...args: string[]): Promise<string> {
  const program = new Command('ctxbench').exitOverride();
  register(program);
  let stdout = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  await program.parseAsync(['generate', ...args], { from: 'user' });
  return stdout;
}

describe('ctxbench generate', () => {
  it('writes the session the flags describe to --out', async () => {
    const out = join(dir, 'session.ctx.jsonl');
    const printed = await runGenerate(
      '--steps',
      '24',
      '--seed',
      '9',
      '--dialect',
      'openai',
      '--tool-output-tokens',
      '300',
      '--timed',
      '--facts',
      '4',
      '-o',
      out,
    );
    const expected = generateSession({ steps: 24, seed: 9, dialect: 'openai', toolOutputTokens: 300, timed: true, facts: 4 });
    expect(readFileSync(out, 'utf8')).toBe(serializeTranscript(expected));
    expect(printed).toContain('24 steps, 4 probes');
    const read = await readTranscript(out);
    expect(countSteps(read.events)).toBe(24);
  });

  it('writes to stdout without --out', async () => {
    const printed = await runGenerate('--steps', '5', '--seed', '3');
    expect(printed).toBe(serializeTranscript(generateSession({ steps: 5, seed: 3 })));
  });

  it('places facts as --fact-position says', async () => {
    const printed = await runGenerate('--steps', '20', '--seed', '4', '--tool-output-tokens', '600', '--fact-position', 'head');
    expect(printed).toBe(serializeTranscript(generateSession({ steps: 20, seed: 4, toolOutputTokens: 600, factPosition: 'head' })));
    expect(printed).not.toBe(serializeTranscript(generateSession({ steps: 20, seed: 4, toolOutputTokens: 600 })));
  });

  it.each([
    [['--fact-position', 'middle'], /--fact-position expects one of uniform, head, tail/],
    [['--steps', 'ten'], /--steps expects a whole number, got "ten"/],
    [['--steps', '1.5'], /--steps/],
    [['--steps', '0'], /--steps: /],
    [['--seed', '-1'], /--seed/],
    [['--tool-output-tokens', 'lots'], /--tool-output-tokens/],
    [['--facts', '2x'], /--facts/],
    [['--dialect', 'anthropic'], /--dialect expects one of gemini, openai/],
    [['--steps', '4', '--tasks', '5'], /--tasks: tasks cannot exceed steps/],
  ])('rejects %j with a UsageError naming the flag', async (args, message) => {
    const failure = runGenerate(...args);
    await expect(failure).rejects.toThrow(UsageError);
    await expect(failure).rejects.toThrow(message);
  });
});
