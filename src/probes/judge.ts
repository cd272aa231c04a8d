import { z } from 'zod';
import type { ContextMessage, Probe, ProbeExpectation } from '../transcript/types.js';
import { describeSchemaError } from '../validate.js';

/**
 * The optional LLM judge of live runs (DESIGN.md §6): builds the request and reads the reply.
 * The caller makes the provider call (purpose `judge`) and loads the rubric (docs/judge-rubric.md).
 */

/** The dimensions of the rubric, each scored 0–5. */
interface JudgeScores {
  accuracy: number;
  completeness: number;
  continuity: number;
  artifactTrail: number;
}

export type JudgeVerdict = { scores: JudgeScores; total: number } | { error: string };

/** What a provider call needs besides the model name; spread into a `CompletionRequest`. */
export interface JudgeRequest {
  purpose: 'judge';
  instruction: string;
  messages: ContextMessage[];
  maxOutputTokens: number;
}

// The reply is a handful of numbers; more room only invites an essay.
const JUDGE_MAX_OUTPUT_TOKENS = 200;

/** The rubric as sent: the text after the first `---` line (the file's preamble is for people). */
function selectRubricBody(rubric: string): string {
  const lines = rubric.split(/\r?\n/);
  const rule = lines.findIndex((line) => line.trim() === '---');
  return (rule < 0 ? rubric : lines.slice(rule + 1).join('\n')).trim();
}

function describeExpectation(expected: ProbeExpectation): string {
  if (expected.notInSession === true) return 'The fact asked about is NOT in the session; a correct answer says so and invents nothing.';
  const parts: string[] = [];
  if (expected.anyOf !== undefined) parts.push(`any one of: ${expected.anyOf.map((s) => JSON.stringify(s)).join(', ')}`);
  if (expected.allOf !== undefined) parts.push(`all of: ${expected.allOf.map((s) => JSON.stringify(s)).join(', ')}`);
  if (expected.regex !== undefined) parts.push(`text matching the pattern /${expected.regex}/i`);
  return `A correct answer contains ${parts.join('; and ')}.`;
}

/** Builds the judge call for one probe answer. Pure; the expected answer goes to the judge only. */
export function buildJudgeRequest(probe: Probe, answer: string, rubric: string): JudgeRequest {
  const text = [
    `Probe kind: ${probe.kind}`,
    `Question: ${probe.question}`,
    `Ground truth: ${describeExpectation(probe.expected)}`,
    'Answer to grade:',
    answer.trim() === '' ? '(empty answer)' : answer,
  ].join('\n');
  const message: ContextMessage = { type: 'message', id: `judge-${probe.id}`, role: 'user', text };
  return { purpose: 'judge', instruction: selectRubricBody(rubric), messages: [message], maxOutputTokens: JUDGE_MAX_OUTPUT_TOKENS };
}

const score = z.number().min(0).max(5);

// A plain object, not strict: judges add a rationale or comment fields, which are harmless.
const replySchema = z.object({
  accuracy: score,
  completeness: score,
  continuity: score,
  artifactTrail: score.optional(),
  artifact_trail: score.optional(),
});

/** The JSON object inside a reply that may wrap it in prose or a ```json fence. */
function findJsonObject(text: string): string | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  return start >= 0 && end > start ? text.slice(start, end + 1) : undefined;
}

/**
 * Reads a judge's reply: four scores 0–5 and their sum as `total` (0–20). A reply that is not
 * such a JSON object is an `{error}`, never a throw.
 */
export function parseJudgeReply(text: string): JudgeVerdict {
  const json = findJsonObject(text);
  if (json === undefined) return { error: 'judge reply holds no JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    return { error: `judge reply is not valid JSON: ${(e as Error).message}` };
  }
  const parsed = replySchema.safeParse(value);
  if (!parsed.success) {
    const { field, message } = describeSchemaError(parsed.error);
    return { error: `judge reply: ${field || 'reply'}: ${message}` };
  }
  const artifactTrail = parsed.data.artifactTrail ?? parsed.data.artifact_trail;
  if (artifactTrail === undefined) return { error: 'judge reply: artifactTrail: missing' };
  const { accuracy, completeness, continuity } = parsed.data;
  const scores: JudgeScores = { accuracy, completeness, continuity, artifactTrail };
  return { scores, total: scores.accuracy + scores.completeness + scores.continuity + scores.artifactTrail };
}
