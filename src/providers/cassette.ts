import nock from 'nock';
import { z } from 'zod';
import { HarnessError, InputError } from '../errors.js';
import type { RetrySleep } from '../quota/types.js';
import type { ProviderName } from '../contracts/provider.js';
import { parseInput } from '../validate.js';

/**
 * Recorded HTTP of a live run (DESIGN.md §5): the exchanges as nock definitions, with keys and
 * auth headers scrubbed, and the waits the run measured, in order. Replaying both gives the live
 * run's result again, offline and byte for byte.
 */
export interface Cassette {
  format: typeof CASSETTE_FORMAT;
  version: 1;
  provider: ProviderName;
  /** The base URL the run talked to, when not the provider's default. */
  baseUrl?: string;
  /** The real waits of the run's retries (ms, measured), in the order they happened. */
  waits: number[];
  interactions: nock.Definition[];
}

export const CASSETTE_FORMAT = 'ctxbench-cassette';

const REDACTED = '[REDACTED]';
/** Response headers that can identify the account; request headers are never recorded. */
const SCRUBBED_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'cookie', 'set-cookie', 'openai-organization', 'openai-project']);
/** Key shapes scrubbed even when the key itself is not known (OpenAI `sk-…`, Google `AIza…`). */
const KEY_PATTERNS = [/\bsk-[A-Za-z0-9_-]{16,}/g, /\bAIza[0-9A-Za-z_-]{30,}/g];

const interactionSchema = z.looseObject({
  scope: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
});

const cassetteSchema = z.strictObject({
  format: z.literal(CASSETTE_FORMAT),
  version: z.literal(1),
  provider: z.enum(['gemini', 'openai']),
  baseUrl: z.string().optional(),
  waits: z.array(z.number().nonnegative()),
  interactions: z.array(interactionSchema),
});

/** A cassette read from `file`: InputError naming the file and field when it is not one. */
export function parseCassette(text: string, file: string): Cassette {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError({ file }, `not JSON: ${(error as Error).message}`);
  }
  return parseInput(cassetteSchema, data, { file, what: 'not a ctxbench cassette' }) as Cassette;
}

/**
 * `value` with every secret in it replaced: the given key values wherever they occur, anything
 * shaped like an OpenAI or Google key, a `key=` query parameter, and the values of auth and
 * account headers. A stand-in until the general redactor (src/redact/) is wired in.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  const known = secrets.filter((s) => s.length >= 4);
  const scrubText = (text: string): string => {
    let out = text;
    for (const secret of known) out = out.split(secret).join(REDACTED);
    for (const pattern of KEY_PATTERNS) out = out.replace(pattern, REDACTED);
    return out.replace(/([?&]key=)[^&#\s"]+/g, `$1${REDACTED}`);
  };
  const walk = (node: unknown, key?: string): unknown => {
    if (typeof node === 'string') return key !== undefined && SCRUBBED_HEADERS.has(key.toLowerCase()) ? REDACTED : scrubText(node);
    if (Array.isArray(node)) return key !== undefined && SCRUBBED_HEADERS.has(key.toLowerCase()) ? node.map(() => REDACTED) : node.map((item) => walk(item));
    if (typeof node === 'object' && node !== null) return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, k)]));
    return node;
  };
  return walk(value) as T;
}

/** A live run being recorded; `stop` ends the recording and returns the scrubbed cassette. */
export interface Recording {
  /** The run's retry sleep, which also records the waits. */
  sleep: RetrySleep;
  stop(): Cassette;
}

/**
 * Starts recording every HTTP exchange of this process (nock's recorder; requests go through to
 * the real server). Only one recording at a time. `sleep` is the live sleep whose measured waits
 * go into the cassette.
 */
export function startRecording(info: { provider: ProviderName; baseUrl?: string; secrets: readonly string[] }, sleep: RetrySleep): Recording {
  const waits: number[] = [];
  nock.recorder.clear();
  nock.recorder.rec({ dont_print: true, output_objects: true, enable_reqheaders_recording: false });
  return {
    async sleep(delayMs) {
      const ms = await sleep(delayMs);
      waits.push(ms);
      return ms;
    },
    stop() {
      const interactions = nock.recorder.play() as nock.Definition[];
      nock.recorder.clear();
      nock.restore();
      // The recorder's restore also turns nock's own interception off; a replay needs it back.
      if (!nock.isActive()) nock.activate();
      const cassette: Cassette = {
        format: CASSETTE_FORMAT,
        version: 1,
        provider: info.provider,
        ...(info.baseUrl !== undefined ? { baseUrl: info.baseUrl } : {}),
        waits,
        interactions,
      };
      return scrubSecrets(cassette, info.secrets);
    },
  };
}

/** A cassette being replayed; `stop` removes its interceptors. */
export interface Replay {
  /** The retry sleep of the replayed run: the recorded waits, in order, without waiting. */
  sleep: RetrySleep;
  stop(): void;
}

/**
 * Answers the run's HTTP from `cassette`, each exchange once and in order, with real network
 * refused; the run's retries take the recorded waits. A run that asks for more than was recorded
 * has diverged from the recording: a request nock cannot match fails as a network error, and a
 * wait beyond the recorded ones raises HarnessError (exit 2).
 */
export function startReplay(cassette: Cassette, file: string): Replay {
  nock.disableNetConnect();
  nock.define(cassette.interactions);
  let next = 0;
  return {
    async sleep() {
      const ms = cassette.waits[next];
      if (ms === undefined)
        throw new HarnessError(
          `${file}: the replayed run waits more often than the recorded one (${cassette.waits.length} waits recorded): it no longer matches the recording`,
        );
      next += 1;
      return ms;
    },
    stop() {
      nock.cleanAll();
    },
  };
}
