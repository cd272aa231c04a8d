import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** performance.now() when the request had been read. */
  at: number;
}

export interface LocalReply {
  status: number;
  headers?: Record<string, string>;
  /** JSON-encoded unless a string. */
  body?: unknown;
  /** Never answer: the request hangs until the client gives up or the server closes. */
  hang?: true;
}

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP server on an ephemeral port that answers every request with `reply`. It stops
 * itself after `lifetimeMs` (default 30 s) if a test forgets to: tests never leave one running.
 */
export async function startLocalServer(reply: (request: SeenRequest, index: number) => LocalReply, lifetimeMs = 30_000): Promise<LocalServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const seen: SeenRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, at: performance.now() };
      requests.push(seen);
      const answer = reply(seen, requests.length - 1);
      if (answer.hang === true) return;
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      clearTimeout(timer);
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const timer = setTimeout(() => void close(), lifetimeMs);
  timer.unref();
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, requests, close };
}

/** A port nothing listens on: one a server had, closed again. */
export async function closedPort(): Promise<number> {
  const server = await startLocalServer(() => ({ status: 500 }));
  const port = Number(new URL(server.origin).port);
  await server.close();
  return port;
}
