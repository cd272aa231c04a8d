/**
 * Colours by strategy family: one hue per family, a shade per member, so that a reader tells the
 * families apart at a glance (windows and masking green, agent-style compactions amber, rolling
 * summaries violet, evictions with memory blue, multi-mode strategies pink) and the baselines stand
 * apart from all of them (`full` near-black, `recorded` grey). Every two colours below are at least
 * 25 CIELAB ΔE apart, and 30 from the red of limits and crashes (test/report/html-polish.test.ts).
 */

/** A family: its name (the legend of the decision table says it) and its members' colours. */
interface Family {
  name: string;
  members: Record<string, string>;
}

export const FAMILIES: readonly Family[] = [
  { name: 'baseline', members: { full: '#111827', recorded: '#6b7280' } },
  {
    name: 'window / masking',
    members: {
      'rolling-window': '#15803d',
      'observation-masking': '#0d9488',
      'clear-tool-results': '#84cc16',
      'anthropic-context-editing': '#064e3b',
      'tiered-truncation': '#5eead4',
    },
  },
  {
    name: 'agent compaction',
    members: { 'codex-rebuild': '#f59e0b', 'claude-code-autocompact': '#7c2d12', 'gemini-cli-compress': '#a3a300', 'openhands-condenser': '#b45309' },
  },
  {
    name: 'rolling summary',
    members: { 'llm-summary-every-n': '#7c3aed', 'anchored-summary': '#581c87', 'reactive-compress': '#a78bfa', hybrid: '#c026d3' },
  },
  { name: 'eviction with memory', members: { 'surgical-eviction': '#2563eb', 'state-anchor': '#1e3a8a', gatekeeper: '#38bdf8' } },
  { name: 'multi-mode', members: { 'tri-modal': '#db2777', sigma: '#831843', pipeline: '#f9a8d4' } },
];

/**
 * Colours for labels that are no registered strategy (a module of the user's, a second label of
 * one strategy): neutral hues, taken in turn.
 */
const OTHERS = ['#57534e', '#0369a1', '#4d7c0f', '#9a3412', '#6d28d9', '#be185d', '#115e59', '#a8a29e'];

const BY_NAME = new Map(FAMILIES.flatMap((family) => Object.entries(family.members).map(([name, color]) => [name, { color, family: family.name }] as const)));

/** The registered strategy a label names: the label itself, or the longest name it starts with (`codex-rebuild trigger=0.5`). */
function registeredName(label: string): string | undefined {
  if (BY_NAME.has(label)) return label;
  let best: string | undefined;
  for (const name of BY_NAME.keys())
    if (label.startsWith(`${name} `) || label.startsWith(`${name}-`)) if (best === undefined || name.length > best.length) best = name;
  return best;
}

/** The family of a strategy label, `other` for a label of no registered strategy. */
export function familyOf(label: string): string {
  const name = registeredName(label);
  return name === undefined ? 'other' : (BY_NAME.get(name)?.family ?? 'other');
}

/**
 * One colour per label, stable across the scenarios of a run: a registered strategy's own colour
 * for the first label of it, the next of the neutral colours for any other label.
 */
export function assignColors(labels: Iterable<string>): Map<string, string> {
  const colors = new Map<string, string>();
  const used = new Set<string>();
  let other = 0;
  for (const label of labels) {
    if (colors.has(label)) continue;
    const name = registeredName(label);
    const own = name === undefined ? undefined : BY_NAME.get(name)?.color;
    const color = own !== undefined && !used.has(own) ? own : (OTHERS[other++ % OTHERS.length] as string);
    used.add(color);
    colors.set(label, color);
  }
  return colors;
}
