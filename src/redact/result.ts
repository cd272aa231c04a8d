import type { RunResult } from '../metrics/types.js';
import { redactValue } from './index.js';

/**
 * The result as it is rendered and written: every string redacted (before any renderer truncates
 * text, so no piece of a secret survives a cut), or, with redaction off, marked `redaction: off`
 * so that every report says so. Idempotent, like the redactor.
 */
export function resultForWriting(result: RunResult, redact: boolean): RunResult {
  if (!redact) return { ...result, redaction: 'off' };
  const { redaction: _wasOff, ...rest } = result;
  return redactValue(rest);
}
