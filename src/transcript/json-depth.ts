/**
 * How deep a transcript's JSON may nest. The deepest value in the real logs of fixtures/real/ is
 * 10 levels (a mini-swe-agent trajectory); every walk over a transcript (freezing, redaction,
 * follow-up reads, token counts) recurses, and tool arguments nested 2,000 deep overflowed the
 * stack as an "internal error". Twenty times the deepest real log is plenty, and safe.
 */
const MAX_JSON_DEPTH = 200;

/**
 * The path (keys and indices) of the first object or array nested deeper than `limit` in
 * `value`, or undefined when none is. Walked with a stack of its own, so any depth is measured.
 */
function tooDeepPath(value: unknown, limit: number = MAX_JSON_DEPTH): (string | number)[] | undefined {
  // Objects and arrays only, each with its depth and where it hangs: the path is made once, if ever.
  const stack: Node[] = typeof value === 'object' && value !== null ? [{ value, depth: 0 }] : [];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.depth >= limit) return pathOf(node);
    const entries: [string | number, unknown][] = Array.isArray(node.value) ? node.value.map((item, i) => [i, item]) : Object.entries(node.value);
    for (const [key, item] of entries) if (typeof item === 'object' && item !== null) stack.push({ value: item, depth: node.depth + 1, key, parent: node });
  }
  return undefined;
}

interface Node {
  value: object;
  depth: number;
  key?: string | number;
  parent?: Node;
}

function pathOf(node: Node): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Node | undefined = node; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

/** The problem of a value nested too deep, naming where, or undefined. */
export function describeTooDeep(value: unknown, limit: number = MAX_JSON_DEPTH): { field: string; problem: string } | undefined {
  const path = tooDeepPath(value, limit);
  if (path === undefined) return undefined;
  const shown = path.slice(0, 3).join('.');
  return { field: `${shown}${path.length > 3 ? '…' : ''}`, problem: `nests more than ${limit} levels deep (ctxbench reads up to ${limit})` };
}
