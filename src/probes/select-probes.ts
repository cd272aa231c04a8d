/**
 * Which of a session's probe candidates are asked: at most `max`, one of each kind first, then in
 * proportion to where the session's text lies (tool output or the agent's own words), each part
 * spread over the session by kind. Seeded, so the same candidates give the same probes.
 */
import type { MessageEvent, Probe, ProbeKind } from '../transcript/types.js';
import { createRandom } from '../random.js';
import { renderMessageText } from './message-text.js';

const KIND_ORDER: readonly ProbeKind[] = ['artifact', 'recall', 'continuation', 'decision'];

/** Where a probe's evidence lies: a tool's output, or what the agent wrote (its text, its call arguments). */
export type EvidenceSource = 'output' | 'agent';

export interface Candidate {
  kind: ProbeKind;
  source: EvidenceSource;
  /** Position among all candidates, i.e. transcript order. */
  order: number;
  probe: Omit<Probe, 'id'>;
}

/** `count` items spread evenly over `items`, starting at a seeded offset. */
function pickEvenly<T>(items: readonly T[], count: number, next: () => number): T[] {
  if (count >= items.length) return [...items];
  const stride = items.length / count;
  const offset = next() * stride;
  return Array.from({ length: count }, (_, i) => items[Math.floor(offset + i * stride)] as T);
}

/**
 * At most `max` candidates, in proportion to where the session's text lies: the share of probes
 * with evidence in tool output is the share of the session's characters that are tool output
 * (rounded; the rest from what the agent wrote), each part chosen by `selectKinds`. A part with too
 * few candidates leaves its quota to the other.
 */
export function selectSpread(candidates: readonly Candidate[], max: number, seed: number, outputShare: number): Candidate[] {
  if (candidates.length <= max) return [...candidates];
  // One of each kind first: a session whose characters are nearly all tool output would otherwise
  // give the agent's own kinds (decisions, what it set out to do) no probe at all.
  const reserved = reserveKinds(candidates, max, seed);
  const rest = candidates.filter((c) => !reserved.includes(c));
  const left = max - reserved.length;
  const outputs = rest.filter((c) => c.source === 'output');
  const agent = rest.filter((c) => c.source === 'agent');
  let outputQuota = Math.min(outputs.length, Math.round(left * outputShare));
  outputQuota = Math.max(outputQuota, left - agent.length);
  return [...reserved, ...selectKinds(outputs, outputQuota, seed), ...selectKinds(agent, left - outputQuota, seed + 1)].sort((a, b) => a.order - b.order);
}

/** One candidate of each kind there is (at most `max`), chosen at a seeded place among its kind. */
function reserveKinds(candidates: readonly Candidate[], max: number, seed: number): Candidate[] {
  const random = createRandom(seed + 2);
  return KIND_ORDER.flatMap((kind) => {
    const list = candidates.filter((c) => c.kind === kind);
    return list.length === 0 ? [] : [list[Math.floor(random.next() * list.length)] as Candidate];
  }).slice(0, max);
}

/** The share of a session's characters (text, thinking and call arguments) that tool outputs hold. */
export function outputShareOf(messages: readonly MessageEvent[]): number {
  let output = 0;
  let all = 0;
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'user') continue;
    const length = renderMessageText(message, { thinking: true }).length;
    all += length;
    if (message.role === 'tool') output += length;
  }
  return all === 0 ? 0 : output / all;
}

/** At most `max` candidates: kinds share the quota in turn, each kind spread over the transcript. */
function selectKinds(candidates: readonly Candidate[], max: number, seed: number): Candidate[] {
  if (candidates.length <= max) return [...candidates];
  const byKind = KIND_ORDER.map((kind) => candidates.filter((c) => c.kind === kind));
  const quotas = byKind.map(() => 0);
  for (let left = max; left > 0;) {
    byKind.forEach((list, k) => {
      if (left > 0 && (quotas[k] ?? 0) < list.length) {
        quotas[k] = (quotas[k] ?? 0) + 1;
        left--;
      }
    });
  }
  const random = createRandom(seed);
  return byKind.flatMap((list, k) => pickEvenly(list, quotas[k] ?? 0, random.next));
}
