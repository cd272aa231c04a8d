import type { MaterialKind } from './summary-material.js';

/**
 * The shape of summary a prompt asks for. The strategies' prompts differ (codex-rebuild.ts
 * HANDOFF_PROMPT, tri-modal.ts RECAP_PROMPT, reactive-compress.ts STRUCTURED_SUMMARY_PROMPT,
 * gatekeeper.ts MAP_PROMPT), and so do real models' answers to them: a handoff leads with the goal
 * and what comes next, a recap with what was done, a structured summary fills its headings, a map
 * step condenses its chunk into lines.
 */
export type SummaryStyle = 'handoff' | 'recap' | 'structured' | 'map';

export interface SummarySection {
  /** Heading; none for a map step's plain lines. */
  title?: string;
  /** The material it draws on, in order of preference. */
  kinds: readonly MaterialKind[];
  /** Its share of the budget (unused shares pass to the next section). */
  share: number;
  /** Oldest first (the original request) rather than newest first. */
  oldestFirst?: boolean;
  /** The section that lists the specifics kept verbatim. */
  isData?: boolean;
}

const STYLES: Record<SummaryStyle, readonly SummarySection[]> = {
  handoff: [
    { title: 'Goal', kinds: ['request'], share: 0.15 },
    { title: 'Next steps', kinds: ['next', 'problem'], share: 0.2 },
    { title: 'Progress and decisions', kinds: ['decision', 'done'], share: 0.35 },
    { title: 'Constraints', kinds: ['constraint'], share: 0.1 },
    { title: 'Critical data', kinds: [], share: 0.2, isData: true },
  ],
  recap: [
    { title: 'Done', kinds: ['done'], share: 0.4 },
    { title: 'Task and status', kinds: ['request', 'constraint'], share: 0.15 },
    { title: 'Decisions', kinds: ['decision'], share: 0.15 },
    { title: 'Open problems', kinds: ['problem', 'next'], share: 0.15 },
    { title: 'Still needed', kinds: [], share: 0.15, isData: true },
  ],
  structured: [
    { title: 'Task', kinds: ['request', 'constraint'], share: 0.2, oldestFirst: true },
    { title: 'Done so far', kinds: ['done'], share: 0.3 },
    { title: 'Decisions', kinds: ['decision'], share: 0.1 },
    { title: 'Files and commands', kinds: [], share: 0.15, isData: true },
    { title: 'Errors and open problems', kinds: ['problem'], share: 0.1 },
    { title: 'Next steps', kinds: ['next'], share: 0.15 },
  ],
  map: [
    { kinds: ['request', 'done', 'decision', 'problem', 'next', 'constraint'], share: 0.85 },
    { kinds: [], share: 0.15, isData: true },
  ],
};

/** The style a prompt asks for; a prompt that names none gets a structured summary. */
export function detectStyle(prompt: string): SummaryStyle {
  if (/\bhand(?:ing|ed)?[\s-]?(?:\w+\s){0,3}?over\b|\bhandoff\b/i.test(prompt)) return 'handoff';
  if (/\brecap\b/i.test(prompt)) return 'recap';
  if (/\bpart of an agent session\b|\bshort factual lines\b|\bthis chunk\b/i.test(prompt)) return 'map';
  return 'structured';
}

export function sectionsOf(style: SummaryStyle): readonly SummarySection[] {
  return STYLES[style];
}
