import type { TranscriptSource } from '../scenario/types.js';
import type { Transcript } from './types.js';
import { readTranscript } from './read.js';
import { generateSession } from './synthetic.js';
import { importTranscript } from './importers/index.js';

/**
 * Loads a scenario's transcript: generated from the seeded synthetic model, read as canonical
 * JSONL, or imported from a foreign agent log (the format detected from the content).
 */
export async function loadTranscript(source: TranscriptSource, seed: number): Promise<Transcript> {
  if (source.kind === 'synthetic') return generateSession({ seed, ...source.options });
  if (source.path.endsWith('.ctx.jsonl')) return readTranscript(source.path, { lenient: source.lenient });
  return importTranscript(source.path, { lenient: source.lenient });
}
