import { z } from 'zod';
import type { Strategy } from '../types.js';

export interface OptionDoc {
  name: string;
  default: unknown;
  description: string;
}

/** The options of a strategy with their defaults and descriptions (from the zod schema). */
export function describeOptions(strategy: Strategy): OptionDoc[] {
  const defaults = strategy.options.parse({}) as Record<string, unknown>;
  const schema = strategy.options as unknown;
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
    name,
    default: defaults[name],
    description: field.description ?? '',
  }));
}
