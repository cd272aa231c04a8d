import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { register } from '../../src/cli/commands/probes.js';
import { UsageError } from '../../src/errors.js';
import { generateProbes } from '../../src/probes/generate.js';
import { loadProbeFile } from '../../src/probes/load.js';
import { readTranscript } from '../../src/transcript/read.js';

const fixture = 'fixtures/probes/session.ctx.jsonl';

async function runCli(args: string[]): Promise<void> {
  const program = new Command('ctxbench').exitOverride();
  register(program);
  await program.parseAsync(args, { from: 'user' });
}

describe('ctxbench probes generate', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes a probe file that loads back to the generated probes', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'ctxbench-probes-')), 'probes.json');
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await runCli(['probes', 'generate', fixture, '--max', '5', '-o', out]);
    const expected = generateProbes(await readTranscript(fixture), { max: 5 });
    expect(await loadProbeFile(out)).toEqual(expected);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ probes: expected });
  });

  it('prints to stdout without -o', async () => {
    const chunks: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      chunks.push(String(chunk));
      return true;
    });
    await runCli(['probes', 'generate', fixture]);
    const printed = JSON.parse(chunks.join('')) as { probes: unknown[] };
    expect(printed.probes).toEqual(generateProbes(await readTranscript(fixture)));
  });

  it('rejects a bad --max as a usage error', async () => {
    await expect(runCli(['probes', 'generate', fixture, '--max', 'many'])).rejects.toBeInstanceOf(UsageError);
  });
});
