/**
 * How a canonical context was laid out in a provider body, for what the body itself cannot say.
 * Gemini joins the request instruction and every system message into one `systemInstruction`, and
 * merges adjacent same-role turns into one content, so the canonical message boundaries (which the
 * tokenizer charges per message) cannot be read back from the body. The provider passes this shape
 * to the simulator beside the directive, so the simulator counts exactly what the harness counts.
 */
export interface RenderShape {
  /** The first system part (Gemini) or first system message (OpenAI) is the request instruction. */
  instruction: boolean;
  /** Gemini: how many parts each non-system message became, in the order of `contents`. */
  partsPerMessage?: number[];
}
