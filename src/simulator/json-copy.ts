/** What `copyJson` gives for a value whose JSON round trip could differ from a copy. */
export const NOT_JSON = Symbol('not a JSON value');

/**
 * A copy of `value` equal to `JSON.parse(JSON.stringify(value))`, or NOT_JSON when the two could
 * differ: only plain objects and arrays without holes, strings, booleans, null and finite numbers
 * other than -0 are copied (no `undefined`, no `toJSON` or `__proto__` key, no class instances).
 */
export function copyJson(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_JSON;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const item = i in value ? copyJson(value[i]) : NOT_JSON;
      if (item === NOT_JSON) return NOT_JSON;
      copy.push(item);
    }
    return copy;
  }
  if (typeof value !== 'object') return NOT_JSON;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return NOT_JSON;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // A `__proto__` key would set the copy's prototype, where parsing makes it an own property.
    const item = key === 'toJSON' || key === '__proto__' ? NOT_JSON : copyJson((value as Record<string, unknown>)[key]);
    if (item === NOT_JSON) return NOT_JSON;
    copy[key] = item;
  }
  return copy;
}
