import type { RunEvent } from '../metrics/run-events.js';
import type { UnitResult } from '../metrics/types.js';
import { escapeHtml } from './html-escape.js';
import { formatCount, formatDuration } from './terminal.js';

/** A timeline longer than this starts collapsed. */
const OPEN_LIMIT = 6;

type TimelineEvent = Extract<RunEvent, { type: 'action' | 'crash' }>;

/**
 * What each strategy did and when: every eviction, truncation, summary or compaction with the
 * tokens before → after, the reason, the mode and the detail, and the crash that ended it, if any.
 * One `<details>` per strategy, open when short.
 */
export function renderTimelines(units: readonly UnitResult[], colors: Map<string, string>): string {
  return units.map((unit) => renderTimeline(unit, colors.get(unit.strategy) ?? '#111827')).join('\n');
}

function renderTimeline(unit: UnitResult, color: string): string {
  const events = unit.events.filter((event): event is TimelineEvent => event.type === 'action' || event.type === 'crash');
  const title = `<span class="swatch" style="background:${color}"></span><strong>${escapeHtml(unit.strategy)}</strong> <span class="dim">${escapeHtml(describeUnit(unit, events))}</span>`;
  if (events.length === 0) return `<div class="timeline empty">${title}</div>`;
  const rows = events.map(renderEvent).join('\n');
  return [
    `<details class="timeline"${events.length <= OPEN_LIMIT ? ' open' : ''}>`,
    `<summary>${title}</summary>`,
    '<div class="table-wrap"><table class="events">',
    '<thead><tr><th>step</th><th>time</th><th>action</th><th>tokens before → after</th><th>reason</th><th>mode</th><th>detail</th></tr></thead>',
    `<tbody>\n${rows}\n</tbody>`,
    '</table></div>',
    '</details>',
  ].join('\n');
}

function renderEvent(event: TimelineEvent): string {
  const at = `<td class="num">${event.step}</td><td class="num">${escapeHtml(formatClock(event.atMs))}</td>`;
  if (event.type === 'crash') {
    return `<tr class="crashed">${at}<td><span class="badge bad">crash: ${escapeHtml(event.kind)}</span></td><td></td><td colspan="3" class="text">${escapeHtml(event.message)}</td></tr>`;
  }
  const saved = event.tokensBefore - event.tokensAfter;
  const change = `${formatCount(event.tokensBefore)} → ${formatCount(event.tokensAfter)}${saved > 0 ? ` <span class="dim">(−${formatCount(saved)})</span>` : ''}`;
  return [
    `<tr>${at}`,
    `<td><span class="badge action-${escapeHtml(event.action)}">${escapeHtml(event.action)}</span></td>`,
    `<td class="num">${change}</td>`,
    `<td class="text">${escapeHtml(event.reason)}</td>`,
    `<td>${escapeHtml(event.mode ?? '')}</td>`,
    `<td class="text">${escapeHtml(event.detail ?? '')}</td></tr>`,
  ].join('');
}

/** "4 actions (3 drop, 1 compact) · 26 rate limits, waited 4.4m · crashed at step 45". */
function describeUnit(unit: UnitResult, events: readonly TimelineEvent[]): string {
  const actions = events.filter((event) => event.type === 'action');
  const byAction = new Map<string, number>();
  for (const event of actions) byAction.set(event.action, (byAction.get(event.action) ?? 0) + 1);
  const parts = [
    actions.length === 0
      ? 'no actions'
      : `${actions.length} action${actions.length === 1 ? '' : 's'} (${[...byAction].map(([name, n]) => `${n} ${name}`).join(', ')})`,
  ];
  if (unit.summary.rate_limit_hits > 0) parts.push(`${unit.summary.rate_limit_hits} rate limits, waited ${formatDuration(unit.summary.wait_ms)}`);
  if (unit.summary.crashed) parts.push(`crashed (${unit.summary.crash_kind ?? '?'}) at step ${unit.summary.crash_step ?? '?'}`);
  return parts.join(' · ');
}

/** Virtual time as m:ss (or h:mm:ss), the way a session's clock reads. */
function formatClock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
