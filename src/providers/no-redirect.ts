/** How a live provider fetches: the global `fetch`'s signature. */
type Fetch = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Redirects followed on the provider's own host before giving up (a proxy's trailing-slash fix). */
const MAX_SAME_HOST_REDIRECTS = 5;

/**
 * Thrown by `fetchWithoutForeignRedirects` for an answer that redirects to another host: the
 * request (the whole prompt, and the key in its headers) is not sent there. The providers turn it
 * into a failure that stops the run (request-bounds.ts).
 */
export class ForeignRedirectError extends Error {
  constructor(
    readonly status: number,
    readonly from: string,
    readonly to: string,
  ) {
    super(`the provider redirected (HTTP ${status}) from ${from} to another host, ${to}: refused, nothing was sent there`);
    this.name = 'ForeignRedirectError';
  }
}

/**
 * `fetch` (looked up on each call, so that an interceptor installed later still sees it) with
 * redirects handled here rather than by the fetch: one to the same origin (scheme, host and port)
 * is followed with the same request, up to five times; one to any other origin throws
 * ForeignRedirectError before anything is sent to it. The fetch standard would follow a 307 with
 * the body and every header but `Authorization`, so a Gemini key (`x-goog-api-key`) and the prompt
 * would go to whatever host the answer names.
 */
export function fetchWithoutForeignRedirects(inner: Fetch = (url, init) => globalThis.fetch(url, init)): Fetch {
  return async (input, init) => {
    // The SDKs pass a URL and its init, never a Request.
    let url = new URL(input instanceof Request ? input.url : input);
    let request = init;
    for (let hop = 0; ; hop++) {
      const response = await inner(url, { ...request, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || location === null) return response;
      const target = new URL(location, url);
      if (target.origin !== url.origin) throw new ForeignRedirectError(response.status, url.origin, target.origin);
      if (hop >= MAX_SAME_HOST_REDIRECTS) return response;
      // 303 (and 301/302 after a POST, as browsers do) turns the request into a GET without a body.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && request?.method === 'POST')) {
        request = { ...request, method: 'GET', body: null };
      }
      url = target;
    }
  };
}

/** The ForeignRedirectError among `error` and its causes (an SDK wraps what its fetch threw). */
export function foreignRedirectOf(error: unknown): ForeignRedirectError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof ForeignRedirectError) return current;
    current = current.cause;
  }
  return undefined;
}
