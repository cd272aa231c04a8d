import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { StrategyFailedError } from './failure.js';

/** How much of the policy's stderr an error message quotes (its last characters). */
const STDERR_TAIL = 1_000;
/** How long a policy may take to exit once its stdin is closed before it is killed. */
const EXIT_GRACE_MS = 1_000;

/** Every policy process this thread started and that still runs: killed when the thread exits. */
const running = new Set<ChildProcess>();
let killOnExitInstalled = false;

/**
 * A policy process with a line-at-a-time channel. Every read waits at most `timeoutMs` (wall
 * clock: the process is real); a crash, an exit, a silence or a start failure rejects with a
 * `StrategyFailedError` naming the command, what ctxbench waited for and the policy's stderr.
 */
export interface PolicyProcess {
  send(message: object): void;
  /** The next line the policy writes; `waitingFor` names the answer expected, for errors. */
  next(waitingFor: string): Promise<string>;
  /** Closes stdin (a policy exits on end of input) and kills it if it lingers. */
  close(): void;
  /** Ends the process now and turns `problem` into the error to throw (`isOptionsError`: the options were refused). */
  fail(problem: string, isOptionsError?: boolean): StrategyFailedError;
}

export function startPolicyProcess(argv: readonly string[], cwd: string, timeoutMs: number): PolicyProcess {
  const [command, ...args] = argv as [string, ...string[]];
  const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  track(child);
  const lines: string[] = [];
  let waiter: { resolve: (line: string) => void; end: (problem: string) => void } | undefined;
  let ended: string | undefined;
  let stderr = '';
  const name = argv.join(' ');
  const describe = (problem: string, isOptionsError = false): StrategyFailedError => {
    const tail = stderr.trim().slice(-STDERR_TAIL);
    return new StrategyFailedError(`policy \`${name}\` ${problem}${tail === '' ? '' : `; its stderr: ${tail}`}`, isOptionsError);
  };
  const endWith = (problem: string): void => {
    if (ended !== undefined) return;
    ended = problem;
    const pending = waiter;
    waiter = undefined;
    // Let the stderr written just before the exit arrive before it is quoted.
    if (pending !== undefined) setImmediate(() => pending.end(problem));
  };
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4 * STDERR_TAIL);
  });
  createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }).on('line', (line) => {
    if (line.trim() === '') return;
    if (waiter !== undefined) {
      const pending = waiter;
      waiter = undefined;
      pending.resolve(line);
    } else lines.push(line);
  });
  child.on('error', (error) => endWith(`could not be started: ${error.message}`));
  child.on('exit', (code, signal) => {
    running.delete(child);
    endWith(`exited (${signal ?? `code ${code}`})`);
  });
  // A write to a policy that died fails with EPIPE: the exit handler explains it already.
  child.stdin?.on('error', () => undefined);
  return {
    send(message) {
      if (ended === undefined) child.stdin?.write(`${JSON.stringify(message)}\n`);
    },
    next(waitingFor) {
      const queued = lines.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      if (ended !== undefined) return Promise.reject(describe(`${ended} while ctxbench waited for ${waitingFor}`));
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiter = undefined;
          child.kill('SIGKILL');
          reject(describe(`did not answer ${waitingFor} within ${timeoutMs} ms (timeoutMs) and was killed`));
        }, timeoutMs);
        waiter = {
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
          end: (problem) => {
            clearTimeout(timer);
            reject(describe(`${problem} while ctxbench waited for ${waitingFor}`));
          },
        };
      });
    },
    close() {
      child.stdin?.end();
      if (child.exitCode === null && child.signalCode === null) setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS).unref();
    },
    fail(problem, isOptionsError) {
      child.kill('SIGKILL');
      return describe(problem, isOptionsError);
    },
  };
}

/** Remembers a started process; the first one installs the exit hook that kills them all. */
function track(child: ChildProcess): void {
  running.add(child);
  if (killOnExitInstalled) return;
  killOnExitInstalled = true;
  process.once('exit', () => {
    for (const process of running) process.kill('SIGKILL');
  });
}
