import type { MessageEvent, Transcript } from '../transcript/types.js';
import { listMessages, renderMessageText } from '../probes/message-text.js';
import { extractNeededUses } from '../probes/needed/extract.js';
import type { NeededKind } from '../probes/needed/types.js';
import { median } from '../stats.js';
import { countTokens } from '../tokens/tokenizer.js';
import type { SourceRole, ToolShape } from './fit-types.js';

/** One needed use as the fit reads it. */
interface ObservedUse {
  readonly distance: number;
  readonly sourceRole: SourceRole;
  readonly kind: NeededKind;
  /** Where the fact stood in its source message's text, 0 to 1. */
  readonly position: number;
  /** Roles of the messages before the source that held the fact too. */
  readonly earlier: readonly SourceRole[];
}

/** Everything the fit takes from one log (`observeLog`), before it is pooled with the others. */
export interface LogObservation {
  readonly format: string;
  readonly dialect: Transcript['header']['dialect'];
  readonly model?: string;
  readonly steps: number;
  readonly hiddenTokens?: number;
  readonly systemTokens: number;
  readonly stepsPerTask: readonly number[];
  /** Task ids the log's task events started, and where each was read from. */
  readonly taskSources: readonly string[];
  readonly userTokens: readonly number[];
  readonly textTokens: readonly number[];
  readonly thinkingTokens: readonly number[];
  readonly reasoningTokens: readonly number[];
  readonly callTokens: readonly number[];
  readonly callsPerStep: readonly number[];
  readonly toolNames: readonly string[];
  readonly asText: number;
  readonly toolTokens: readonly number[];
  readonly toolShapes: readonly ToolShape[];
  readonly uses: readonly ObservedUse[];
  /** Steps at which a use can occur (from the minimum distance on). */
  readonly useSteps: number;
  readonly compactions: number;
  readonly summaryTokens: readonly number[];
}

/** How many first calls estimate the hidden prefix (as replay/hidden-prefix.ts does, on characters). */
const HIDDEN_STEPS = 3;
const MIN_DISTANCE = 10;

/** Reads one log's sizes, turns, needed uses and compactions (pure). */
export function observeLog(transcript: Transcript): LogObservation {
  const messages = listMessages(transcript.events);
  const assistants = messages.filter((m) => m.role === 'assistant');
  const tools = messages.filter((m) => m.role === 'tool');
  const compactions = transcript.events.flatMap((e) => (e.type === 'compaction' ? [e] : []));
  const hidden = hiddenTokensOf(messages);
  return {
    format: transcript.header.source?.format ?? 'unknown',
    dialect: transcript.header.dialect,
    ...(transcript.header.model !== undefined ? { model: transcript.header.model } : {}),
    steps: assistants.length,
    ...(hidden !== undefined ? { hiddenTokens: hidden } : {}),
    systemTokens: messages.filter((m) => m.role === 'system').reduce((sum, m) => sum + tokensOf(m.text), 0),
    stepsPerTask: stepsPerTask(messages),
    taskSources: [
      ...new Map(
        transcript.events.flatMap((e) => (e.type === 'task' && e.status === 'in_progress' ? [[e.id, e.source ?? 'user-turns'] as const] : [])),
      ).values(),
    ],
    userTokens: messages.filter((m) => m.role === 'user').map((m) => tokensOf(m.text)),
    textTokens: assistants.map((m) => tokensOf(m.text)),
    thinkingTokens: assistants.map((m) => tokensOf(m.thinking ?? '')),
    reasoningTokens: assistants.map((m) => m.reasoningTokens ?? 0),
    callTokens: assistants.flatMap((m) => (m.toolCalls ?? []).map((c) => tokensOf(JSON.stringify(c.args)))),
    callsPerStep: assistants.map((m) => m.toolCalls?.length ?? 0),
    toolNames: assistants.flatMap((m) => (m.toolCalls ?? []).map((c) => c.name)),
    asText: assistants.filter((m) => m.sentAsText === true).length,
    toolTokens: tools.map((m) => tokensOf(m.text)),
    toolShapes: tools.map((m) => shapeOf(m.text)),
    uses: observeUses(transcript, messages),
    useSteps: Math.max(0, assistants.length - MIN_DISTANCE),
    compactions: compactions.length,
    summaryTokens: compactions.flatMap((c) => (c.summary !== undefined ? [tokensOf(c.summary)] : [])),
  };
}

/** Sizes are counted with one tokenizer whatever the log's model, so that fits of two formats compare. */
export function tokensOf(text: string): number {
  return text === '' ? 0 : countTokens('o200k_base', text);
}

/** Recorded input − the tokens the log holds so far, over the first calls with usage. */
function hiddenTokensOf(messages: readonly MessageEvent[]): number | undefined {
  const residuals: number[] = [];
  let tokens = 0;
  for (const message of messages) {
    if (residuals.length >= HIDDEN_STEPS) break;
    if (message.role === 'assistant' && message.usage?.input !== undefined) residuals.push(Math.max(0, message.usage.input - tokens));
    tokens += tokensOf(message.text) + (message.toolCalls === undefined ? 0 : tokensOf(JSON.stringify(message.toolCalls)));
  }
  return residuals.length === 0 ? undefined : Math.round(median(residuals));
}

/** Assistant messages between one user request and the next (the last task runs to the end). */
function stepsPerTask(messages: readonly MessageEvent[]): number[] {
  const counts: number[] = [];
  for (const message of messages) {
    if (message.role === 'user') counts.push(0);
    else if (message.role === 'assistant' && counts.length > 0) counts[counts.length - 1] = (counts.at(-1) ?? 0) + 1;
  }
  return counts.filter((n) => n > 0);
}

/** The roles of the messages before `before` whose text or calls hold the fact. */
function earlierRoles(searchable: readonly { role: SourceRole; text: string }[], before: number, fact: string): SourceRole[] {
  const roles = new Set<SourceRole>();
  for (let i = 0; i < before; i++) {
    const message = searchable[i] as { role: SourceRole; text: string };
    if (!roles.has(message.role) && message.text.includes(fact)) roles.add(message.role);
  }
  return [...roles];
}

function observeUses(transcript: Transcript, messages: readonly MessageEvent[]): ObservedUse[] {
  const searchable = messages.map((m) => ({ role: roleOf(m.role), text: renderMessageText(m) }));
  return extractNeededUses(transcript, { minDistance: MIN_DISTANCE }).map((use) => {
    const source = messages[use.sourceIndex];
    const text = source?.text ?? '';
    const at = text.indexOf(use.fact);
    return {
      distance: use.useStep - use.sourceStep,
      sourceRole: roleOf(source?.role),
      kind: use.kind,
      // A fact found only in the tool call's arguments stands after the text.
      position: at < 0 || text.length === 0 ? 1 : at / text.length,
      earlier: earlierRoles(searchable, use.sourceIndex, use.fact),
    };
  });
}

function roleOf(role: MessageEvent['role'] | undefined): SourceRole {
  return role === 'tool' || role === 'user' ? role : 'assistant';
}

/**
 * The shape of a tool output, read from its lines: most lines numbered (`  12\tcode`) or code
 * punctuation → code; a test runner's or a traceback's words → test; most lines one word (paths,
 * names) → listing; anything else → text.
 */
export function shapeOf(text: string): ToolShape {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return 'text';
  const share = (test: (line: string) => boolean): number => lines.filter(test).length / lines.length;
  if (/Traceback \(most recent call last\)|\b(?:passed|failed|FAILED|PASSED)\b|\bError: /.test(text)) return 'test';
  if (share((l) => /^\s*\d+[\t:| ]/.test(l) || /[{};]\s*$|^\s*(?:def|class|import|from|return|function|const|let)\b/.test(l)) >= 0.4) return 'code';
  if (share((l) => !/\s/.test(l.trim())) >= 0.6) return 'listing';
  return 'text';
}
