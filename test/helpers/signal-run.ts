import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SignalledRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI (`main`, a `dist/cli/main.js`) in its own process and sends it `signal` once
 * `ready()` holds (polled every 20 ms); resolves with how it exited and what it wrote.
 */
export function runAndSignal(
  main: string,
  args: readonly string[],
  ready: () => boolean,
  signal: NodeJS.Signals,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SignalledRun> {
  const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setInterval(() => {
    if (ready()) {
      clearInterval(timer);
      child.kill(signal);
    }
  }, 20);
  return new Promise((resolve) =>
    child.on('exit', (code, sig) => {
      clearInterval(timer);
      resolve({ code, signal: sig, stdout, stderr });
    }),
  );
}

/** The units a run's journal in `out` holds (its header line left out). */
export function journaledUnits(out: string): number {
  const file = join(out, '.journal.jsonl');
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '').length - 1
    : 0;
}
