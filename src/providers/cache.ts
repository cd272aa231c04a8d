import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CompletionOk, CompletionRequest, Provider } from '../contracts/provider.js';

/** The default folder of the response cache (git-ignored), relative to the working directory. */
export const DEFAULT_CACHE_DIR = '.ctxbench-cache';

/**
 * Bumped when what a cached entry means changes (the key's fields, the stored shape), so that an
 * old cache is simply never hit again.
 */
const CACHE_FORMAT = 1;

/** Successful live responses on disk, by request hash. Failures are never stored. */
export interface ResponseCache {
  /** The stored response for `key`, or undefined (absent, unreadable or not a response). */
  get(key: string): Promise<CompletionOk | undefined>;
  put(key: string, response: CompletionOk): Promise<void>;
}

/** What identifies a live request besides its body: who answers it. */
export interface CacheIdentity {
  provider: string;
  /** The endpoint (base URL), or '' for the provider's default one. */
  endpoint: string;
  /** The model used when a request names none. */
  model: string;
}

/**
 * SHA-256 (hex) of everything that decides the request body a provider sends: provider,
 * endpoint, model, the canonical messages, the instruction, the output budget and the thinking limit. The body is
 * rendered from exactly these, so equal keys mean identical requests. The call's purpose and the
 * simulator directive are not sent to a live API and are left out.
 */
export function requestKey(identity: CacheIdentity, request: CompletionRequest): string {
  const payload = {
    format: CACHE_FORMAT,
    provider: identity.provider,
    endpoint: identity.endpoint,
    model: request.model !== '' ? request.model : identity.model,
    instruction: request.instruction ?? null,
    maxOutputTokens: request.maxOutputTokens ?? null,
    // Absent unless set, so keys of requests without a thinking limit stay as they were.
    ...(request.thinking !== undefined ? { thinking: request.thinking } : {}),
    messages: request.messages,
  };
  return createHash('sha256').update(JSON.stringify(payload)).digest('hex');
}

export interface ResponseCacheOptions {
  /**
   * What a response is stored as: the redactor (src/redact), passed in by the engine, so that a
   * provider that echoes the prompt leaves no key of the transcript on disk. The caller still gets
   * the response as it came; a later hit gets the stored one (its usage is the same numbers).
   */
  redact?: (response: CompletionOk) => CompletionOk;
}

/**
 * A cache in `dir`: one JSON file per response under a two-hex-digit fan-out folder. Writes go
 * to a unique temporary file that is then renamed, so workers writing the same key at once
 * never leave a torn file; a file that cannot be read or parsed is a miss.
 */
export function createResponseCache(dir: string, options: ResponseCacheOptions = {}): ResponseCache {
  const pathOf = (key: string): string => join(dir, key.slice(0, 2), `${key}.json`);
  return {
    async get(key) {
      const text = await readFile(pathOf(key), 'utf8').catch(() => undefined);
      if (text === undefined) return undefined;
      try {
        const entry = JSON.parse(text) as { format?: unknown; response?: CompletionOk };
        return entry.format === CACHE_FORMAT && entry.response?.ok === true ? entry.response : undefined;
      } catch {
        return undefined;
      }
    },
    async put(key, response) {
      const path = pathOf(key);
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
      const temporary = `${path}.${randomUUID()}.tmp`;
      const stored = options.redact !== undefined ? options.redact(response) : response;
      await writeFile(temporary, `${JSON.stringify({ format: CACHE_FORMAT, key, response: stored })}\n`, 'utf8');
      await rename(temporary, path);
    },
  };
}

/**
 * `provider` answering identical requests from `cache`. Only successful responses are stored: a
 * failure (rate limit, overflow, server error) is returned as it came and asked again next time.
 * A cache that cannot be written does not fail the call: the response is still returned.
 */
export function withResponseCache(provider: Provider, cache: ResponseCache, identity: CacheIdentity): Provider {
  return {
    name: provider.name,
    mode: provider.mode,
    dialect: provider.dialect,
    async complete(request) {
      const key = requestKey(identity, request);
      const cached = await cache.get(key);
      if (cached !== undefined) return cached;
      const result = await provider.complete(request);
      if (result.ok) await cache.put(key, result).catch(() => undefined);
      return result;
    },
  };
}
