import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

/** Where Debian's package puts Chromium; `CHROMIUM` overrides it. */
export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((path): path is string => path !== undefined && path !== '' && existsSync(path));
}

/** A DevTools protocol event: its method, params and the session it came from. */
export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

interface Pending {
  resolve(value: Record<string, unknown>): void;
  reject(error: Error): void;
}

/**
 * Headless Chromium driven over `--remote-debugging-pipe` (commands on fd 3, replies on fd 4,
 * NUL-separated JSON), so no WebSocket client or extra dependency is needed.
 */
export class Browser {
  readonly events: CdpEvent[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly waiters: { method: string; resolve(event: CdpEvent): void }[] = [];
  private nextId = 1;
  private buffer = '';
  private stderr = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly input: Writable,
  ) {}

  /** Starts Chromium headless with a fresh profile in `userDataDir`; nothing reaches the network. */
  static launch(binary: string, userDataDir: string): Browser {
    const args = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
      '--disable-extensions',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-quic',
      '--hide-scrollbars',
      '--remote-debugging-pipe',
      `--user-data-dir=${userDataDir}`,
      'about:blank',
    ];
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    const browser = new Browser(child, child.stdio[3] as Writable);
    (child.stdio[4] as Readable).on('data', (chunk: Buffer) => browser.receive(chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => {
      browser.stderr = (browser.stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('exit', () => browser.failAll(new Error(`chromium exited; stderr:\n${browser.stderr}`)));
    return browser;
  }

  /** Sends a command (to a target session when `sessionId` is given) and resolves with its result. */
  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const message = JSON.stringify({ id, method, params, ...(sessionId !== undefined ? { sessionId } : {}) });
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.input.write(`${message}\0`);
    });
  }

  /** Resolves with the next event called `method`; call it before the command that causes it. */
  waitFor(method: string, timeoutMs: number): Promise<CdpEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${method} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        method,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      });
    });
  }

  /** Closes the browser politely, then makes sure the process is gone. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.send('Browser.close').catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  private receive(text: string): void {
    this.buffer += text;
    for (let end = this.buffer.indexOf('\0'); end !== -1; end = this.buffer.indexOf('\0')) {
      const message = JSON.parse(this.buffer.slice(0, end)) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
      } & Partial<CdpEvent>;
      this.buffer = this.buffer.slice(end + 1);
      if (message.id !== undefined) this.settle(message.id, message.result, message.error);
      else if (message.method !== undefined)
        this.dispatch({ method: message.method, params: message.params ?? {}, ...(message.sessionId !== undefined ? { sessionId: message.sessionId } : {}) });
    }
  }

  private settle(id: number, result: Record<string, unknown> | undefined, error: { message: string } | undefined): void {
    const pending = this.pending.get(id);
    this.pending.delete(id);
    if (error !== undefined) pending?.reject(new Error(error.message));
    else pending?.resolve(result ?? {});
  }

  private dispatch(event: CdpEvent): void {
    this.events.push(event);
    const index = this.waiters.findIndex((waiter) => waiter.method === event.method);
    if (index !== -1) this.waiters.splice(index, 1)[0]?.resolve(event);
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
