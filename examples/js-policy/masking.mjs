// Observation masking (SWE-agent) as a strategy module of your own: tool results older than the
// last `keepLast` are replaced by a one-line placeholder. Plain JavaScript, no dependency: the
// options are checked by a validate function (a zod schema works too, see docs/strategy-api.md).
// Run it: ctxbench run examples/js-policy/scenario.yaml — check it: ctxbench verify examples/js-policy/masking.mjs

const DEFAULTS = { keepLast: 10, keepTools: [], maskTools: [] };

/** The options with defaults filled, or what is wrong with them (failures are values). */
function validateOptions(raw) {
  const options = { ...DEFAULTS, ...raw };
  for (const key of Object.keys(raw)) if (!(key in DEFAULTS)) return { ok: false, field: key, message: `unknown option "${key}"` };
  if (!Number.isInteger(options.keepLast) || options.keepLast < 0) return { ok: false, field: 'keepLast', message: 'expects a whole number >= 0' };
  for (const key of ['keepTools', 'maskTools']) {
    if (!Array.isArray(options[key]) || options[key].some((t) => typeof t !== 'string'))
      return { ok: false, field: key, message: 'expects a list of tool names' };
  }
  return { ok: true, value: options };
}

const placeholder = (lines) => `Old environment output: (${lines} lines omitted)`;
const lineCount = (text) => (text === '' ? 0 : text.split('\n').length);

/** The context: every observed message, old tool results masked. */
function mask(messages, options) {
  const results = messages.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
  const recent = new Set(results.slice(Math.max(0, results.length - options.keepLast)));
  const masked = new Set(
    results.filter((i) => {
      const name = messages[i].toolName ?? '';
      if (options.keepTools.includes(name)) return false;
      if (options.maskTools.includes(name)) return true;
      return !recent.has(i);
    }),
  );
  return messages.map((m, i) => {
    if (!masked.has(i)) return m;
    const text = placeholder(lineCount(m.text));
    // A short result the placeholder would not shrink stays as it is.
    return text.length >= m.text.length ? m : { ...m, text, replaces: [m.id] };
  });
}

export default {
  name: 'js-masking',
  description: 'Observation masking written as a strategy module outside ctxbench (examples/js-policy).',
  options: validateOptions,
  // What `ctxbench tune --strategy-module examples/js-policy/masking.mjs <logs>` searches.
  tunable: { keepLast: { min: 2, max: 30, step: 2 } },
  init: (options) => ({ options, messages: [], masked: 0 }),
  observe(event, state) {
    if (event.type === 'message') state.messages.push(event);
  },
  prepare(state, env) {
    const context = mask(state.messages, state.options);
    const masked = context.filter((m, i) => m !== state.messages[i]).length;
    // One timeline event per change of the masked set, not one per step.
    if (masked !== state.masked && masked > 0) {
      env.emit({
        action: 'truncate',
        reason: `observations older than the last ${state.options.keepLast} masked`,
        tokensBefore: env.countMessages(state.messages),
        tokensAfter: env.countMessages(context),
        detail: `${masked} tool results replaced by a placeholder`,
      });
    }
    state.masked = masked;
    return context;
  },
};
