import { describe, expect, it } from 'vitest';
import { ForeignRedirectError, fetchWithoutForeignRedirects } from '../../src/providers/no-redirect.js';
import { useLoopbackServers } from '../helpers/live-scenario.js';

// Real sockets on 127.0.0.1: the fetch standard's own redirect handling is what is replaced.
const loopback = useLoopbackServers();

describe('fetchWithoutForeignRedirects', () => {
  it('refuses a 307 to another host before anything is sent there', async () => {
    const elsewhere = await loopback.serve(() => ({ status: 200, body: { stolen: true } }));
    const provider = await loopback.serve(() => ({ status: 307, headers: { location: `${elsewhere.origin}/v1/chat/completions` } }));
    const fetch = fetchWithoutForeignRedirects();
    const sent = fetch(`${provider.origin}/v1/chat/completions`, { method: 'POST', body: '{"messages":"the prompt"}', headers: { 'x-goog-api-key': 'k' } });
    await expect(sent).rejects.toThrow(ForeignRedirectError);
    await expect(fetch(`${provider.origin}/v1/chat/completions`, { method: 'POST', body: '{}' })).rejects.toThrow(
      new RegExp(`redirected \\(HTTP 307\\) from ${provider.origin} to another host, ${elsewhere.origin}: refused`),
    );
    expect(elsewhere.requests).toEqual([]);
  });

  it('follows a redirect on the same host with the same request', async () => {
    const server = await loopback.serve((request) =>
      request.path === '/old' ? { status: 308, headers: { location: '/new' } } : { status: 200, body: { path: request.path, body: request.body } },
    );
    const response = await fetchWithoutForeignRedirects()(`${server.origin}/old`, { method: 'POST', body: 'the prompt' });
    expect(await response.json()).toEqual({ path: '/new', body: 'the prompt' });
    expect(server.requests.map((request) => [request.method, request.path])).toEqual([
      ['POST', '/old'],
      ['POST', '/new'],
    ]);
  });

  it('gives up on a redirect loop on its own host with the last answer', async () => {
    const server = await loopback.serve(() => ({ status: 307, headers: { location: '/again' } }));
    const response = await fetchWithoutForeignRedirects()(`${server.origin}/start`, { method: 'POST', body: 'x' });
    expect(response.status).toBe(307);
    expect(server.requests).toHaveLength(6);
  });
});
