import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { transpiledPackage } from '../helpers/transpile.js';
import { journaledUnits, runAndSignal } from '../helpers/signal-run.js';

const bad = resolve(import.meta.dirname, '../../fixtures/bad');

/** Whether a process is gone: no such pid, or a zombie its new parent has not reaped yet. */
function isGone(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return true;
  return readFileSync(stat, 'utf8').replace(/^.*\)/, '').includes(' Z ');
}

describe('fixtures/bad: inputs that would hang a run', () => {
  it('a policy process that leaves a background child: the child ends with the unit, the run with its reports', async () => {
    const pidFile = join(tempDir(), 'child.pid');
    process.env.CTXBENCH_LEFT_CHILD_PID_FILE = pidFile;
    try {
      const out = tempDir();
      const { code, stderr } = await cli(['run', join(bad, 'policies/leaves-child.yaml'), '--out', out, '--quiet', '--workers', '1', '--reports', 'json']);
      expect(code, stderr).toBe(0);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(pid).toBeGreaterThan(0);
      // Killed with the policy's process group when the unit ended, before the run returned.
      expect(isGone(pid), `the policy's child ${pid} still runs`).toBe(true);
    } finally {
      delete process.env.CTXBENCH_LEFT_CHILD_PID_FILE;
    }
  });

  describe('a transcript that is not a regular file is refused before it is read (exit 2, one line)', () => {
    const dir = tempDir();
    const fifo = join(dir, 'fifo.ctx.jsonl');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(join(dir, 'fifo.yaml'), 'name: fifo\ntranscript: fifo.ctx.jsonl\nstrategies: [full]\n');
    writeFileSync(join(dir, 'device.yaml'), 'name: device\ntranscript: /dev/zero\nstrategies: [full]\n');
    mkdirSync(join(dir, 'logs'));
    it.each([
      ['a FIFO given to run', ['run', fifo], /fifo\.ctx\.jsonl: a scenario or transcript given to run is a FIFO, not a regular file/],
      ["a FIFO as a scenario's transcript", ['run', join(dir, 'fifo.yaml')], /fifo\.ctx\.jsonl: the transcript is a FIFO, not a regular file/],
      ["a device as a scenario's transcript", ['run', join(dir, 'device.yaml')], /\/dev\/zero: the transcript is a device, not a regular file/],
      ['a FIFO given to import', ['import', fifo, '--from', 'claude-code', '-o', join(dir, 'out.ctx.jsonl')], /fifo\.ctx\.jsonl: the log is a FIFO/],
      ['a FIFO given to fidelity', ['fidelity', fifo], /fifo\.ctx\.jsonl: the (transcript|log) is a FIFO/],
    ])('%s', async (_name, args, message) => {
      const out = join(tempDir(), 'out');
      const { code, stderr } = await cli([...args, ...(args[0] === 'run' ? ['--out', out] : [])]);
      expect(code, stderr).toBe(2);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    });
  });
});

describe('fixtures/bad/policies: a stopped run ends at once, whatever its units wait for', () => {
  let main = '';
  beforeAll(async () => {
    main = join(await transpiledPackage(), 'dist', 'cli', 'main.js');
  }, 120_000);

  it.each([
    ['SIGTERM', 143, 1],
    ['SIGINT', 130, 1],
    // On a worker thread, whose own exit hook does not run when the process exits under it.
    ['SIGTERM', 143, 2],
  ] as const)(
    '%s while a policy never answers (a ten-minute limit): exit %i, journal kept, the policy killed (%i workers)',
    async (signal, exitCode, workers) => {
      const out = tempDir();
      const waiting = join(tempDir(), 'waiting.pid');
      const args = ['run', join(bad, 'policies/never-answers.yaml'), '--out', out, '--workers', String(workers), '--reports', 'json'];
      // Signalled once the policy waits on its first prepare and full's unit is journaled (on two workers, they run side by side).
      const ready = () => existsSync(waiting) && readFileSync(waiting, 'utf8').endsWith('\n') && journaledUnits(out) >= 1;
      const { code, stderr } = await runAndSignal(main, args, ready, signal, { ...process.env, CTXBENCH_POLICY_WAITING_FILE: waiting });
      expect(code, stderr).toBe(exitCode);
      expect(stderr).toContain(`${signal}: stopping`);
      const journal = readFileSync(join(out, '.journal.jsonl'), 'utf8').trim().split('\n');
      expect(journal).toHaveLength(2); // the header and full's unit
      const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { partial: { planned: number; completed: number } };
      expect(result.partial).toMatchObject({ planned: 2, completed: 1 });
      // ctxbench waits, as it exits, for the policies it killed to end (policy-process.ts `awaitEnded`).
      expect(isGone(Number(readFileSync(waiting, 'utf8'))), 'the policy still runs').toBe(true);
    },
    60_000,
  );
});
