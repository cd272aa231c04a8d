import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareScenarios } from '../../src/run/run-suite.js';
import { completeProbes } from '../../src/run/prepare.js';
import { describeAdHocScenarios } from '../../src/cli/ad-hoc-note.js';
import { tempDir } from '../helpers/temp.js';

/** A folder of one's own logs: two real Claude Code logs and a Codex one, a session's subagent folder beside one. */
function logFolder(): string {
  const dir = tempDir();
  copyFileSync('fixtures/real/claude-code/coverage-test-fix.jsonl', join(dir, 'coverage-test-fix.jsonl'));
  mkdirSync(join(dir, 'nested'));
  copyFileSync('fixtures/real/claude-code/stop-hook-uncommitted-changes.jsonl', join(dir, 'nested', 'stop-hook.jsonl'));
  copyFileSync('fixtures/real/codex/vibecoding-session.jsonl', join(dir, 'nested', 'codex-session.jsonl'));
  // A session's own folder (Claude Code keeps its subagents there) is not walked.
  mkdirSync(join(dir, 'coverage-test-fix'));
  copyFileSync('fixtures/real/claude-code/hello-world-script.jsonl', join(dir, 'coverage-test-fix', 'agent.jsonl'));
  return dir;
}

describe('a folder of logs named to run', () => {
  it('is one scenario over every log import reads in it, any depth and format, with probes generated for each', async () => {
    const dir = logFolder();
    const [prepared, ...rest] = await prepareScenarios([dir], { window: 100_000 });
    expect(rest).toEqual([]);
    expect(prepared?.logs?.map((log) => log.file.slice(dir.length + 1))).toEqual([
      'coverage-test-fix.jsonl',
      'nested/codex-session.jsonl',
      'nested/stop-hook.jsonl',
    ]);
    expect(prepared?.scenario.probesGenerate).toEqual({});
    expect(prepared?.scenario.window).toBe(100_000);
    await completeProbes(prepared!);
    expect(prepared?.logs?.some((log) => (log.probes?.probes.length ?? 0) > 0)).toBe(true);
  });

  it('prints its ad-hoc scenario first, with the count and formats of its logs', async () => {
    const dir = logFolder();
    const note = await describeAdHocScenarios([dir], { window: 100_000 }, []);
    expect(note).toMatch(/is a folder of 3 logs, not a scenario: run as this ad-hoc scenario, one corpus over them/);
    expect(note).toMatch(/transcript: .*\/ {5}# 3 logs: 2 claude-code, 1 codex/);
    expect(note).toContain('window: 100000     # from --window');
    expect(note).toMatch(/probes: generate {5}# logs hold no probes/);
  });

  it('gets generated probes and every log at any depth under a scenario file that names the folder without probes:', async () => {
    const dir = logFolder();
    const scenario = join(dir, '..', `${dir.split('/').pop()}.yaml`);
    writeFileSync(scenario, `name: mine\ntranscript: ${dir.split('/').pop()}/\nwindow: 100000\nstrategies: [full]\n`);
    const [prepared] = await prepareScenarios([scenario]);
    expect(prepared?.scenario.probesGenerate).toEqual({});
    // A scenario's `transcript:` folder reads the same logs as the folder named on the command line.
    expect(prepared?.logs?.map((log) => log.file.slice(dir.length + 1))).toEqual([
      'coverage-test-fix.jsonl',
      'nested/codex-session.jsonl',
      'nested/stop-hook.jsonl',
    ]);
  });
});
