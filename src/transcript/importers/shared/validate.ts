import type { z } from 'zod';
import type { InputLocation } from '../../../errors.js';
import { parseInput } from '../../../validate.js';

/**
 * Checks one foreign record against the (loose) schema of the fields an importer reads. Foreign
 * formats carry many fields we ignore, so schemas here are `looseObject`s: strict about what we
 * use, silent about the rest.
 * @throws InputError at `where`, its field extended by the path of the first problem.
 */
export function parseShape<T>(schema: z.ZodType<T>, value: unknown, where: InputLocation): T {
  const at = where.field === undefined || where.field === '' ? [] : [where.field];
  return parseInput(schema, value, { file: where.file, line: where.line, at });
}

/**
 * Normalises a foreign time to ISO 8601 with an offset, as the canonical schema wants. Numbers are
 * epoch seconds or milliseconds. A time without a zone (OpenHands writes Python's naive
 * `isoformat()`) is read as UTC: the recording machine's zone is not in the file. Anything else is
 * dropped — `at` is optional, and a bad time must not cost the message.
 */
export function normalizeTime(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const ms = value < 1e11 ? value * 1000 : value;
    return new Date(ms).toISOString();
  }
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/i.exec(value.trim());
  if (match?.[1] === undefined) return undefined;
  // The canonical schema wants seconds and a colon in the offset.
  const time = match[1].replace(' ', 'T').replace(/T(\d{2}:\d{2})$/, 'T$1:00');
  const zone = match[2] === undefined ? 'Z' : match[2].toUpperCase();
  const normalised = `${time}${/^[+-]\d{4}$/.test(zone) ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone}`;
  return Number.isNaN(Date.parse(normalised)) ? undefined : normalised;
}
