import type { TranscriptSource } from './types.js';
import type { Transcript } from '../transcript/types.js';
import { readTranscript } from '../transcript/read.js';
import { importTranscript } from '../transcript/importers/index.js';
import { headValue, readHead } from '../transcript/importers/shared/lines.js';
import { displayPath, refuseIrregularFile } from '../paths.js';

/** A canonical transcript saved under another name (`generate > session.jsonl`): its first line is the session header. */
export async function isCanonicalFile(file: string): Promise<boolean> {
  return isCanonicalHead(await readHead(file).catch(() => []));
}

/** `isCanonicalFile` of a file's head (`readHead`) already read. */
export function isCanonicalHead(head: readonly string[]): boolean {
  const value = headValue(head, 0);
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>).type === 'session';
}

/**
 * Loads a scenario's transcript: generated from the seeded synthetic model, read as canonical
 * JSONL, or imported from a foreign agent log (the format detected from the content).
 */
export async function loadTranscript(source: TranscriptSource, seed: number): Promise<Transcript> {
  // The generator (a dozen modules of vocabulary and templates) is loaded only by runs that use it.
  if (source.kind === 'synthetic') return (await import('../transcript/synthetic/generate.js')).generateSession({ seed, ...source.options });
  // Read through the path as messages show it, so that an error names the file as the user knows it.
  const path = displayPath(source.path);
  await refuseIrregularFile(path, 'the transcript');
  if (source.format === undefined && (path.endsWith('.ctx.jsonl') || (await isCanonicalFile(path)))) return readTranscript(path, { lenient: source.lenient });
  return importTranscript(path, { lenient: source.lenient, ...(source.format !== undefined ? { from: source.format } : {}) });
}
