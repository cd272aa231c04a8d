// A deliberately broken policy, for `ctxbench verify`: it drops old tool results but keeps the
// calls that asked for them — a context no provider accepts. verify fails on it and names the
// step and the message ids: ctxbench verify examples/broken-policy/drops-results.mjs

export default {
  name: 'drops-results',
  description: 'Broken on purpose: drops every tool result but the last 3 and keeps their calls.',
  options: (raw) => ({ ok: true, value: { keepLast: 3, ...raw } }),
  init: (options) => ({ options, messages: [] }),
  observe(event, state) {
    if (event.type === 'message') state.messages.push(event);
  },
  prepare(state) {
    const results = state.messages.filter((m) => m.role === 'tool');
    const keep = new Set(results.slice(-state.options.keepLast));
    return state.messages.filter((m) => m.role !== 'tool' || keep.has(m));
  },
};
