import type { ProbeJudgement } from '../metrics/types.js';
import type { CompletionRequest } from '../contracts/provider.js';
import type { Probe } from '../transcript/types.js';
import { sendMeasurement, type ProbeCallDeps } from './ask.js';
import { buildJudgeRequest, parseJudgeReply } from './judge.js';

/**
 * Scores one probe answer with the LLM judge of live runs (DESIGN.md §6): one `judge` call
 * through the unit's gateway, as probe calls go, but never admitted by the agent's quota (the
 * judge is measurement of measurement), and recorded as a `judge` call event so that its tokens
 * are reported apart. A failed call or a reply that is not the rubric's JSON is an `{error}`,
 * never a throw: a live run keeps its deterministic grades whatever the judge does.
 */
export async function judgeAnswer(deps: ProbeCallDeps, rubric: string, probe: Probe, answer: string, step: number): Promise<ProbeJudgement> {
  const request: CompletionRequest = { model: deps.scenario.model, ...buildJudgeRequest(probe, answer, rubric) };
  const result = await sendMeasurement(deps, request, step, false);
  if (!result.ok) return { error: `judge call failed: ${result.failure.kind}: ${result.failure.message}` };
  const verdict = parseJudgeReply(result.text);
  return 'error' in verdict ? verdict : { ...verdict.scores, total: verdict.total };
}
