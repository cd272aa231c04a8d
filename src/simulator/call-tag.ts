import type { CompletionRequest, SimDirective } from '../contracts/provider.js';
import type { RenderShape } from '../wire/render-shape.js';
import type { CanonicalCall, Simulator } from './types.js';

/** The header that keys a mocked request to the directive registered for it. */
export const CALL_HEADER = 'x-ctxbench-call';

/** The window of a mocked call that came without a directive: large enough never to bind. */
const UNBOUNDED_WINDOW = 1_000_000_000;

/**
 * Registers the directive of one call with the simulator and returns the headers that key it;
 * `canonical`: what the body was rendered from, so the simulator need not parse (OpenAI) or count (both) it back.
 */
export type CallTagger = (request: CompletionRequest, shape: RenderShape, canonical?: CanonicalCall) => Record<string, string>;

/**
 * A tagger with its own call counter, so a provider's call keys (`<prefix><name>-<n>`) are the
 * same on every run whatever other providers do meanwhile.
 */
export function createCallTagger(simulator: Simulator, keyPrefix: string): CallTagger {
  let calls = 0;
  return (request, shape, canonical) => {
    calls += 1;
    const directive: SimDirective = request.directive ?? { purpose: request.purpose, window: UNBOUNDED_WINDOW };
    const id = simulator.register(directive, { key: `${keyPrefix}${calls}`, shape, ...(canonical !== undefined ? { canonical } : {}) });
    return { [CALL_HEADER]: id };
  };
}
