import type { Transcript } from './types.js';
import type { ImportOptions } from './importers/types.js';
import { createTranscriptBuilder } from './importers/shared/builder.js';
import { readJsonLines, type JsonLine } from './importers/shared/lines.js';
import { buildClaudeTranscript } from './importers/claude-code.js';

/**
 * The subagent conversations of a Claude Code session, each as a transcript of its own.
 *
 * Claude Code (1.0.x) writes what a subagent (the Task tool) does into the main session's file,
 * as `isSidechain` records: the subagent's own prompt, its calls and their results. They never
 * entered the main agent's context (it got only the subagent's final report, as a tool result),
 * so the main import leaves them out; but each one was a context of its own, sent to the model
 * call after call, and a context strategy would have managed it too. A conversation starts at a
 * sidechain record whose parent is not a sidechain record (the subagent's prompt) and holds every
 * sidechain record that descends from it.
 *
 * Each comes back with the main session's format and the id `<session>/sidechain-<n>` (n from 1,
 * in the order they start in the file); conversations with no model call are left out.
 */
export async function importClaudeSidechains(file: string, options: ImportOptions = {}): Promise<Transcript[]> {
  const reader = createTranscriptBuilder({ file, format: 'claude-code', dialect: 'anthropic', lenient: options.lenient });
  const groups = await groupSidechains(readJsonLines(file, reader));
  const transcripts: Transcript[] = [];
  for (const lines of groups) {
    const builder = createTranscriptBuilder({ file, format: 'claude-code', dialect: 'anthropic', lenient: options.lenient });
    const transcript = await buildClaudeTranscript(builder, lines, true);
    if (!transcript.events.some((e) => e.type === 'message' && e.role === 'assistant')) continue;
    transcript.header.id = `${transcript.header.id}/sidechain-${transcripts.length + 1}`;
    transcript.header.title = describeSidechain(transcript);
    transcripts.push(transcript);
  }
  return transcripts;
}

/** Sidechain records grouped into conversations by their `parentUuid` chains, in file order. */
async function groupSidechains(lines: AsyncIterable<JsonLine>): Promise<JsonLine[][]> {
  const groups: JsonLine[][] = [];
  const groupOf = new Map<string, JsonLine[]>();
  for await (const line of lines) {
    const record = line.value;
    if (record.isSidechain !== true) continue;
    const parent = typeof record.parentUuid === 'string' ? groupOf.get(record.parentUuid) : undefined;
    const group = parent ?? [];
    if (parent === undefined) groups.push(group);
    group.push(line);
    if (typeof record.uuid === 'string') groupOf.set(record.uuid, group);
  }
  return groups;
}

/** A title from the subagent's prompt: its first line, shortened. */
function describeSidechain(transcript: Transcript): string {
  const prompt = transcript.events.find((e) => e.type === 'message' && e.role === 'user');
  const first = prompt?.type === 'message' ? (prompt.text.split('\n').find((line) => line.trim() !== '') ?? '') : '';
  const short = first.length > 100 ? `${first.slice(0, 99)}…` : first;
  return `Subagent conversation: ${short}`;
}
