import type { SimDirective } from '../contracts/provider.js';
import type { RenderShape } from '../wire/render-shape.js';
import type { FaultKind, ParsedRequest, SimAnswer, SimReply, SimUsage } from './types.js';
import type { RequestRefusal } from './request-rules.js';

/** The simulated model's answers written in one provider's own bodies and headers. */
export interface ReplyFormat {
  parse(body: unknown, shape: RenderShape | undefined): ParsedRequest | undefined;
  /** A 400 in the provider's envelope (a body that is not a request, an unknown call). */
  badRequest(message: string): SimReply;
  overflow(inputTokens: number, window: number): SimReply;
  /** The 400 the API gives a message list it refuses (request-rules.ts), in its own envelope. */
  refused(refusal: RequestRefusal): SimReply;
  rateLimit(limit: NonNullable<SimDirective['rateLimit']>): SimReply;
  fault(kind: Exclude<FaultKind, 'timeout'>): SimReply;
  success(answer: SimAnswer, usage: SimUsage, model: string): SimReply;
}

export function jsonReply(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): SimReply {
  return { kind: 'http', status, body, headers: { 'Content-Type': 'application/json', ...headers } };
}

/** A 200 whose JSON is cut short, as a dropped connection or a broken proxy leaves it. */
export function truncatedReply(start: string): SimReply {
  return { kind: 'http', status: 200, body: start, headers: { 'Content-Type': 'application/json' } };
}
