import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';

/** Parses a positive integer flag value or fails with a usage error naming the flag. */
export function parsePositiveInt(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value.replace(/_/g, ''));
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} expects a whole number, got "${value}"`);
    return n;
  };
}

/** Parses a comma-separated list flag. */
export function parseList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Parses an enumerated flag value. */
export function parseChoice<T extends string>(flag: string, choices: readonly T[]): (value: string) => T {
  return (value) => {
    if (!(choices as readonly string[]).includes(value)) throw new UsageError(`${flag} expects one of ${choices.join(', ')}, got "${value}"`);
    return value as T;
  };
}

/** The bundled default suite (`scenarios/` of the package). */
export function bundledSuite(): string {
  return fileURLToPath(new URL('../../scenarios/', import.meta.url));
}

/** Whether to colour terminal output: a TTY, and NO_COLOR unset. */
export function useColor(stream: NodeJS.WriteStream): boolean {
  return stream.isTTY === true && (process.env['NO_COLOR'] ?? '') === '';
}
