import type { Transcript, TranscriptEvent } from '../../types.js';

/**
 * Codex re-serializes shell outputs for the model when its `apply_patch` tool is freeform (codex-rs
 * `Prompt::get_formatted_input`, `reserialize_shell_outputs`): the rollout keeps each shell or
 * apply_patch output as the JSON Codex made of it (`{"output":…,"metadata":{"exit_code":…,
 * "duration_seconds":…}}`), but the model gets it as structured text — `Exit code: N`, `Wall time:
 * S seconds`, `Output:` and the output itself, unescaped. On the two codex-patches rollouts
 * (0.57, gpt-5-codex, freeform apply_patch) the recorded input grows by the structured text on
 * 60 outputs over 300 tokens (within +15–70 tokens, the reasoning item and the call included),
 * where the JSON reads up to 20 % more (one token more per escaped `\r\n`, and escaped newlines
 * split from the indentation after them); the 0.39 rollout, whose tools are functions, is billed
 * the JSON exactly. An output Codex had already cut (past 10 KiB: no longer valid JSON) stays
 * as it is, as Codex could not parse it either.
 */
const SHELL_TOOLS = new Set(['shell', 'local_shell', 'container.exec', 'exec_command', 'apply_patch']);

/** The transcript with its shell outputs as the model got them, when the rollout used the freeform apply_patch tool. */
export function withStructuredShellOutputs(transcript: Transcript): Transcript {
  const shellCalls = new Set<string>();
  let freeformPatch = false;
  for (const event of transcript.events) {
    if (event.type !== 'message') continue;
    for (const call of event.toolCalls ?? []) {
      if (call.freeform === true && call.name === 'apply_patch') freeformPatch = true;
      if (SHELL_TOOLS.has(call.name)) shellCalls.add(call.id);
    }
  }
  if (!freeformPatch) return transcript;
  const events = transcript.events.map((event): TranscriptEvent => {
    if (event.type !== 'message' || event.role !== 'tool' || event.toolCallId === undefined || !shellCalls.has(event.toolCallId)) return event;
    const text = structuredOutput(event.text);
    return text === undefined ? event : { ...event, text };
  });
  return { ...transcript, events };
}

/** codex-rs `build_structured_output`; undefined when the text is not Codex's JSON of an output. */
function structuredOutput(text: string): string | undefined {
  if (!text.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { output, metadata } = parsed as { output?: unknown; metadata?: { exit_code?: unknown; duration_seconds?: unknown } };
  if (typeof output !== 'string' || typeof metadata !== 'object' || metadata === null) return undefined;
  if (typeof metadata.exit_code !== 'number' || typeof metadata.duration_seconds !== 'number') return undefined;
  const sections = [`Exit code: ${metadata.exit_code}`, `Wall time: ${metadata.duration_seconds} seconds`];
  const total = /^Total output lines: (\d+)\n\n/.exec(output);
  if (total !== null) sections.push(`Total output lines: ${total[1]}`);
  sections.push('Output:', total === null ? output : output.slice(total[0].length));
  return sections.join('\n');
}
