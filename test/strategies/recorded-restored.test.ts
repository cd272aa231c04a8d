import { describe, expect, it } from 'vitest';
import { recorded } from '../../src/strategies/recorded.js';
import { replay } from '../helpers/strategy-harness.js';
import { importTranscript } from '../../src/transcript/importers/index.js';
import { listMessages, renderMessageText } from '../../src/probes/message-text.js';
import { isRetained } from '../../src/probes/retention.js';
import type { CompactionEvent, Probe, TranscriptEvent } from '../../src/transcript/types.js';

/**
 * Issue 25 item 6: after its own compaction Claude Code re-attaches the files it read most recently
 * (and its todo list), which its log does not record; the importer rebuilds them
 * (transcript/claude-restored.ts) and `recorded` sends them after the summary, so a fact
 * that only a re-attached file holds is kept.
 */
describe('recorded after a Claude Code compaction (vsla-0a725fb5)', async () => {
  const transcript = await importTranscript('fixtures/real/claude-code-long/vsla-0a725fb5.jsonl', { lenient: false });
  const at = transcript.events.findIndex((e) => e.type === 'compaction');
  const compaction = transcript.events[at] as CompactionEvent;
  const before = listMessages(transcript.events.slice(0, at));
  const restored = compaction.restored ?? [];
  // A file read before the compaction and re-attached whole: its Read result is the evidence.
  const read = before.find((m) => m.role === 'tool' && m.text.length > 200 && restored.some((r) => r.includes(m.text)));
  // One of its lines that the summary does not hold: only the re-attached file can keep it.
  const line = read?.text.split('\n').find((l) => l.trim().length > 40 && !(compaction.summary ?? '').includes(l.replace(/^\s*\d+→/, '')));
  const probe: Probe = {
    id: 'restored',
    kind: 'artifact',
    question: 'What did the file say?',
    expected: { anyOf: [line ?? ''] },
    evidence: [read?.id ?? ''],
    ask: ['after-compaction'],
  };
  const upTo = transcript.events.slice(0, at + 1);

  it('rebuilds what Claude Code re-attached: the todo list, then the files used last, most recent first (a log without a boundary: every one within the budget)', () => {
    const names = restored.map((r) => /"file_path":"[^"]*\/([^/"]+)"/.exec(r)?.[1] ?? 'todo list');
    // preamble.tex was edited after its last read: an edit makes a file recent as a read does.
    expect(names.slice(0, 6)).toEqual(['todo list', 'gradients.tex', 'foundations.tex', 'stacking.tex', 'preamble.tex', 'bibliography.bib']);
    expect(names.length).toBeGreaterThan(6);
    expect(read).toBeDefined();
    expect(line).toBeDefined();
  });

  it('keeps a fact whose only evidence after the compaction is a re-attached file', async () => {
    const { context } = await replay(recorded, {}, upTo);
    expect(context.filter((m) => m.synthetic === 'recorded-restored')).toHaveLength(restored.length);
    const texts = context.map((m) => renderMessageText(m));
    expect(isRetained(probe, texts, [renderMessageText(read ?? before[0]!)])).toBe(true);
    expect(texts.some((t) => t.includes(line ?? '-'))).toBe(true);
  });

  it('without what was re-attached, the summary alone loses it', async () => {
    const { restored: _dropped, ...bare } = compaction;
    const events: TranscriptEvent[] = upTo.map((e) => (e === compaction ? bare : e));
    const { context } = await replay(recorded, {}, events);
    const texts = context.map((m) => renderMessageText(m));
    expect(isRetained(probe, texts, [renderMessageText(read ?? before[0]!)])).toBe(false);
  });
});
