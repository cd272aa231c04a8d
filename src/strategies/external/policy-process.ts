import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { BroadcastChannel, isMainThread } from 'node:worker_threads';
import { StrategyFailedError } from './failure.js';

/** How much of the policy's stderr an error message quotes (its last characters). */
const STDERR_TAIL = 1_000;
/** How long a policy may take to exit once its stdin is closed before it is killed. */
const EXIT_GRACE_MS = 1_000;
/** How long ctxbench, exiting, waits for the policies it killed to end (a SIGKILL lands when the kernel next runs its target). */
const KILLED_WAIT_MS = 2_000;
/** The longest line a policy may write, in bytes: past it the policy is killed (a runaway writer must not take the memory). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Every policy process this thread started and that still runs: killed, with its process group, when the thread exits. */
const running = new Set<ChildProcess>();
let killOnExitInstalled = false;

/**
 * Where worker threads tell the main thread which policy process groups they started and ended. A
 * worker's own exit hook does not run when the process exits under it (a second Ctrl-C exits at
 * once): its policies, in process groups of their own, would outlive ctxbench. The main thread
 * kills every group still announced when it exits.
 */
const POLICY_PIDS = 'ctxbench-policy-pids';
interface PolicyPidMessage {
  pid: number;
  running: boolean;
}
/** The groups worker threads started and have not ended (main thread only). */
const workerGroups = new Set<number>();
let workerChannel: BroadcastChannel | undefined;
let announce: BroadcastChannel | undefined;

/**
 * Called by the main thread before it starts worker threads that may run policy processes: from
 * then on it kills, when it exits, every policy group a worker started and has not ended.
 */
export function watchWorkerPolicies(): void {
  if (!isMainThread || workerChannel !== undefined) return;
  workerChannel = new BroadcastChannel(POLICY_PIDS);
  workerChannel.unref();
  workerChannel.onmessage = (event: unknown) => {
    const { pid, running: alive } = (event as { data: PolicyPidMessage }).data;
    if (alive) workerGroups.add(pid);
    else workerGroups.delete(pid);
  };
  process.once('exit', () => {
    for (const pid of workerGroups) killPid(pid);
    awaitEnded([...workerGroups]);
  });
}

/** A worker thread tells the main thread of a policy group it started or ended. */
function announceGroup(pid: number | undefined, alive: boolean): void {
  if (isMainThread || pid === undefined) return;
  if (announce === undefined) {
    announce = new BroadcastChannel(POLICY_PIDS);
    announce.unref();
  }
  announce.postMessage({ pid, running: alive } satisfies PolicyPidMessage);
}

/**
 * A policy process with a line-at-a-time channel. Every read waits at most `timeoutMs` (wall
 * clock: the process is real); a crash, an exit, a silence or a start failure rejects with a
 * `StrategyFailedError` naming the command, what ctxbench waited for and the policy's stderr.
 */
export interface PolicyProcess {
  send(message: object): void;
  /** The next line the policy writes; `waitingFor` names the answer expected, for errors. */
  next(waitingFor: string): Promise<string>;
  /**
   * Closes stdin (a policy exits on end of input) and kills it if it lingers past a second; resolves
   * once it is gone, with every process it left in its group.
   */
  close(): Promise<void>;
  /** Ends the process now and turns `problem` into the error to throw (`isOptionsError`: the options were refused). */
  fail(problem: string, isOptionsError?: boolean): StrategyFailedError;
}

export function startPolicyProcess(argv: readonly string[], cwd: string, timeoutMs: number): PolicyProcess {
  const [command, ...args] = argv as [string, ...string[]];
  // Its own process group: a child the policy leaves in the background (holding the pipes, which
  // would keep ctxbench alive) is ended with it.
  const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  track(child);
  const lines: string[] = [];
  let waiter: { resolve: (line: string) => void; end: (problem: string) => void } | undefined;
  let ended: string | undefined;
  let stderr = '';
  const name = argv.join(' ');
  const describe = (problem: string, isOptionsError = false, kind: 'strategy' | 'strategy-timeout' = 'strategy'): StrategyFailedError => {
    const tail = stderr.trim().slice(-STDERR_TAIL);
    return new StrategyFailedError(`policy \`${name}\` ${problem}${tail === '' ? '' : `; its stderr: ${tail}`}`, isOptionsError, kind);
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
  const deliver = (line: string): void => {
    if (line.trim() === '') return;
    if (waiter !== undefined) {
      const pending = waiter;
      waiter = undefined;
      pending.resolve(line);
    } else lines.push(line);
  };
  readLines(child, deliver, () => {
    killGroup(child);
    endWith(`wrote a line longer than ${MAX_LINE_BYTES / 1024 / 1024} MB (the limit of one message) and was killed`);
  });
  child.on('error', (error) => endWith(`could not be started: ${error.message}`));
  child.on('exit', (code, signal) => {
    running.delete(child);
    announceGroup(child.pid, false);
    // Whatever the policy left running ends with it.
    killGroup(child);
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
          killGroup(child);
          reject(describe(`did not answer ${waitingFor} within ${timeoutMs} ms (timeoutMs) and was killed`, false, 'strategy-timeout'));
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
      if (child.exitCode !== null || child.signalCode !== null) {
        killGroup(child);
        return Promise.resolve();
      }
      // Waited for, so that the unit ends with its policy's whole group gone: a worker thread
      // ended right after its last unit would not see the exit, nor kill what the policy left.
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => killGroup(child), EXIT_GRACE_MS);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    fail(problem, isOptionsError) {
      killGroup(child);
      return describe(problem, isOptionsError);
    },
  };
}

/**
 * Splits the policy's stdout into lines as bytes arrive, holding at most `MAX_LINE_BYTES` of an
 * unfinished line: past it, `tooLong` is called once and the rest of the output is ignored.
 */
function readLines(child: ChildProcess, deliver: (line: string) => void, tooLong: () => void): void {
  let partial: Buffer[] = [];
  let size = 0;
  let overflowed = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (overflowed) return;
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      partial.push(chunk.subarray(start, end));
      deliver(Buffer.concat(partial).toString('utf8'));
      partial = [];
      size = 0;
      start = end + 1;
    }
    if (start < chunk.length) {
      size += chunk.length - start;
      if (size > MAX_LINE_BYTES) {
        overflowed = true;
        partial = [];
        tooLong();
        return;
      }
      partial.push(chunk.subarray(start));
    }
  });
  child.stdout?.on('end', () => {
    if (!overflowed && size > 0) deliver(Buffer.concat(partial).toString('utf8'));
  });
}

/** Remembers a started process; the first one installs the exit hook that kills them all. */
function track(child: ChildProcess): void {
  running.add(child);
  announceGroup(child.pid, true);
  if (killOnExitInstalled) return;
  killOnExitInstalled = true;
  process.once('exit', () => {
    for (const child of running) killGroup(child);
    awaitEnded([...running].flatMap((child) => (child.pid === undefined ? [] : [child.pid])));
  });
}

/**
 * Blocks, at most `KILLED_WAIT_MS`, until every process of `pids` has ended (gone, or a zombie
 * left to be reaped), so that no policy ctxbench killed still runs once it has exited. An exit hook
 * cannot wait for events: it looks at `/proc` between short sleeps. Where there is no `/proc`
 * (not Linux) it returns at once, the kills sent.
 */
function awaitEnded(pids: readonly number[]): void {
  if (process.platform !== 'linux' || pids.length === 0) return;
  const until = Date.now() + KILLED_WAIT_MS;
  const sleep = new Int32Array(new SharedArrayBuffer(4));
  let left = pids.filter(runs);
  while (left.length > 0 && Date.now() < until) {
    Atomics.wait(sleep, 0, 0, 5);
    left = left.filter(runs);
  }
}

/** Whether process `pid` still runs: its `/proc` entry is there and its state is neither zombie nor dead. */
function runs(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (command) state …": the command may hold parentheses, the state follows the last one.
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Kills the policy and every process of its group (what it started and left behind); one already gone is no error. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  // ESRCH: the group is gone already. The policy itself may still be a zombie: kill it directly.
  if (!killPid(child.pid)) child.kill('SIGKILL');
}

/** Kills the process group `pid` leads; false when there is none. */
function killPid(pid: number): boolean {
  try {
    process.kill(-pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}
