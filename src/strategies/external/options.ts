import type { z } from 'zod';
import { describeSchemaError } from '../../validate.js';

/**
 * What a plain validate function returns for a strategy's raw options: the options with their
 * defaults filled, or what is wrong (the field as a dotted path inside `options`).
 */
export type OptionsValidation<Options> = { ok: true; value: Options } | { ok: false; message: string; field?: string };

/** A strategy's options check without zod: given the raw options, the filled options or a problem. */
export type ValidateOptions<Options> = (raw: Record<string, unknown>) => OptionsValidation<Options>;

/**
 * A zod-shaped schema over a plain validate function, so that a strategy written without zod (a
 * JS module, say) is validated by the engine like any other: `parse({})` gives its defaults and
 * a failure names the field.
 */
export function optionsFromValidate<Options>(validate: ValidateOptions<Options>): z.ZodType<Options> {
  const safeParse = (raw: unknown) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return failure<Options>('options must be an object', undefined);
    const checked = validate(raw as Record<string, unknown>);
    return checked.ok ? { success: true as const, data: checked.value } : failure<Options>(checked.message, checked.field);
  };
  const schema = {
    safeParse,
    parse(raw: unknown): Options {
      const parsed = safeParse(raw);
      if (parsed.success) return parsed.data;
      throw new Error(describeSchemaError(parsed.error, 'invalid options').message);
    },
  };
  return schema as unknown as z.ZodType<Options>;
}

function failure<Options>(
  message: string,
  field: string | undefined,
): { success: false; error: { issues: { message: string; path: string[] }[] }; data?: Options } {
  return { success: false, error: { issues: [{ message, path: field === undefined || field === '' ? [] : field.split('.') }] } };
}

/** A strategy's `options` as the engine uses them: a schema as it is, a validate function wrapped. */
export function optionsSchemaOf(options: unknown): z.ZodType<unknown> {
  if (typeof options === 'function') return optionsFromValidate(options as ValidateOptions<unknown>);
  return options as z.ZodType<unknown>;
}
