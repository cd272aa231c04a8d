import { ConfigError, ProviderError } from '../errors.js';
import type { Failure, Provider, ProviderName } from '../contracts/provider.js';

/** Gemini answers a bad key with 400 INVALID_ARGUMENT, not 401. */
const GEMINI_BAD_KEY = /API key not valid|API_KEY_INVALID/i;

/**
 * Why a provider that answered `failure` cannot be used for this run at all, or undefined when
 * the failure is an outcome to measure. Authentication, permission and an exhausted quota
 * (`insufficient_quota`, a per-day limit) are fatal whenever they come; a 404 (a wrong base path
 * or model) during the run. Before the run (`preflight`), an unreachable host is fatal too; once a
 * run is under way, a timeout, a 5xx or a 429 stays a measured outcome.
 */
function unusableCause(failure: Failure, phase: 'preflight' | 'run'): string | undefined {
  if (failure.kind === 'quota') return `quota exhausted: ${failure.message}`;
  if (failure.kind === 'network') return phase === 'preflight' ? `cannot reach it: ${failure.message}` : undefined;
  if (failure.kind === 'server' && failure.malformed === true && phase === 'preflight') return failure.message;
  if (failure.kind !== 'bad-request') return undefined;
  if (failure.status === 401 || (failure.status === 400 && GEMINI_BAD_KEY.test(failure.message))) {
    return `authentication failed (HTTP ${failure.status}): ${failure.message}`;
  }
  if (failure.status === 403) return `permission denied (HTTP 403): ${failure.message}`;
  // Only a redirect to another host comes back as a 3xx failure (no-redirect.ts): wherever it comes, the base URL is wrong.
  if (failure.status !== undefined && failure.status >= 300 && failure.status <= 399) return failure.message;
  if (failure.status === 404 && phase === 'run') return `not found (HTTP 404): ${failure.message}`;
  return undefined;
}

/** The one-line message of a provider that cannot be used. */
function describeUnusable(name: ProviderName, endpoint: string | undefined, cause: string): string {
  return `the live ${name} provider at ${endpoint ?? '(default URL)'} cannot be used: ${cause}`;
}

/**
 * Why a provider that has not yet given one usable answer cannot be used: its first answer was a
 * body that is not a completion (an HTML page, broken JSON), or never came within the request
 * time limit. Once it has answered, the same failures are measured outcomes (a unit crash with
 * the reason, after the retry policy's tries).
 */
function unansweredCause(failure: Failure): string | undefined {
  if (failure.kind === 'server' && failure.malformed === true) return failure.message;
  if (failure.kind === 'network' && failure.timedOut === true) return failure.message;
  return undefined;
}

/**
 * A live provider that raises ProviderError on a failure that makes the whole run meaningless
 * (see `unusableCause`, `unansweredCause`), instead of letting every unit record it as a crash:
 * the run stops with exit 2 before any report is written. Every other failure is returned as
 * data, as usual.
 */
export function guardLiveProvider(provider: Provider): Provider {
  let answered = false;
  const guarded: Provider = {
    name: provider.name,
    mode: provider.mode,
    dialect: provider.dialect,
    ...(provider.endpoint !== undefined ? { endpoint: provider.endpoint } : {}),
    async complete(request) {
      const result = await provider.complete(request);
      if (result.ok) answered = true;
      const cause = result.ok ? undefined : (unusableCause(result.failure, 'run') ?? (answered ? undefined : unansweredCause(result.failure)));
      if (cause !== undefined) throw new ProviderError(describeUnusable(provider.name, provider.endpoint, cause));
      return result;
    },
  };
  if (provider.checkAccess !== undefined) guarded.checkAccess = () => (provider.checkAccess as () => Promise<Failure | undefined>).call(provider);
  return guarded;
}

/** Raises ProviderError when `provider` cannot be used (its `checkAccess` failed fatally). */
export async function preflightProvider(provider: Provider): Promise<void> {
  const failure = await provider.checkAccess?.();
  const cause = failure === undefined ? undefined : unusableCause(failure, 'preflight');
  if (cause !== undefined) throw new ProviderError(describeUnusable(provider.name, provider.endpoint, cause));
}

/**
 * A thrown network error with its causes, innermost last ("Connection error. ← fetch failed ←
 * connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)"): the SDKs hide the reason two levels down.
 */
export function describeNetworkError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (!(current instanceof Error)) {
      // A thrown non-Error is shown as it stringifies; there is nothing better to show.
      // eslint-disable-next-line @typescript-eslint/no-base-to-string
      parts.push(String(current));
      break;
    }
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === 'string' && !current.message.includes(code) ? `${current.message} (${code})` : current.message);
    current = current.cause;
  }
  return parts.join(' ← ');
}

/** Raises ConfigError unless `url` is an absolute http(s) URL. */
export function checkBaseUrl(name: ProviderName, url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    throw new ConfigError(describeUnusable(name, url, 'the base URL is not an absolute http(s) URL'));
  }
}
