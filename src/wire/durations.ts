/**
 * The duration strings providers put in retry hints: Gemini's RetryInfo `retryDelay` ("13s",
 * "0.5s") and OpenAI's `x-ratelimit-reset-*` headers ("1s", "6m0s", "120ms", "1h2m3.5s").
 */

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };
const SEGMENT = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;

/** Milliseconds of a duration string, or undefined when it is not one. A bare number is seconds. */
export function parseDuration(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  if (!/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(trimmed)) return undefined;
  let ms = 0;
  for (const match of trimmed.matchAll(SEGMENT)) {
    ms += Number(match[1]) * (UNIT_MS[match[2] ?? 's'] ?? 0);
  }
  return Math.round(ms);
}

/** Formats milliseconds the way OpenAI's `x-ratelimit-reset-*` headers do ("120ms", "1.5s", "6m0s"). */
export function formatResetDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  if (whole < 1000) return `${whole}ms`;
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor((whole % 3_600_000) / 60_000);
  const seconds = (whole % 60_000) / 1000;
  const secondsText = `${Number(seconds.toFixed(3))}s`;
  if (hours > 0) return `${hours}h${minutes}m${secondsText}`;
  if (minutes > 0) return `${minutes}m${secondsText}`;
  return secondsText;
}

/**
 * The wait an HTTP answer's headers ask for, most precise first: `retry-after-ms`, then
 * `retry-after` (seconds; the HTTP-date form is no usable hint here), then OpenAI's token and
 * request resets. Read on both providers' 429s.
 */
export function retryAfterOf(headers: Pick<Headers, 'get'> | undefined): number | undefined {
  if (headers === undefined) return undefined;
  const ms = readNumber(headers.get('retry-after-ms'));
  if (ms !== undefined) return Math.round(ms);
  const seconds = readNumber(headers.get('retry-after'));
  if (seconds !== undefined) return Math.round(seconds * 1000);
  return parseDuration(headers.get('x-ratelimit-reset-tokens')) ?? parseDuration(headers.get('x-ratelimit-reset-requests'));
}

function readNumber(raw: string | null): number | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
