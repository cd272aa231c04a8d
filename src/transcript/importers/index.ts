import { InputError, UsageError } from '../../errors.js';
import type { Transcript } from '../types.js';
import type { ImportOptions, Importer } from './types.js';
import { readHead } from './shared/lines.js';
import { outlineJsonDocument } from './shared/json-document.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { geminiCli } from './gemini-cli.js';
import { sweAgent } from './swe-agent.js';
import { miniSweAgent } from './mini-swe-agent.js';
import { openhands } from './openhands.js';
import { openaiMessages } from './openai-messages.js';
import { geminiContents } from './gemini-contents.js';

/**
 * Every importer, by name (= file name). Detection tries them in this order, so the specific
 * agent-log formats come before the plain message arrays they could be mistaken for.
 */
export const importers = {
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  'mini-swe-agent': miniSweAgent,
  'swe-agent': sweAgent,
  openhands,
  'gemini-contents': geminiContents,
  'openai-messages': openaiMessages,
} satisfies Record<string, Importer>;

export function importerNames(): string[] {
  return Object.keys(importers);
}

/** Looks an importer up by name; an unknown name fails with the list of known ones. */
export function getImporter(name: string): Importer {
  const found = (importers as Record<string, Importer>)[name];
  if (found === undefined) throw new UsageError(`unknown transcript format "${name}"; known formats: ${importerNames().join(', ')}`);
  return found;
}

/**
 * The importer whose format the file is in, judged from its first lines, or, when they do not
 * tell and the file is one JSON document, from the outline of its every top-level key (a format
 * key may come after a long field); undefined when none fits.
 */
export async function detectFormat(file: string, firstLines?: string[]): Promise<Importer | undefined> {
  const fits = (lines: string[]): Importer | undefined => Object.values(importers).find((importer) => importer.detect(lines));
  // The file's head (`readHead`), when the caller read it already.
  const head = firstLines ?? (await readHead(file));
  const found = fits(head);
  if (found !== undefined || !/^\s*[[{]/.test(head[0] ?? '')) return found;
  const outline = await outlineJsonDocument(file);
  return outline === undefined ? undefined : fits(outline);
}

export interface ImportTranscriptOptions extends ImportOptions {
  /** The format, when the caller knows it; otherwise it is detected from the content. */
  from?: string;
}

/**
 * Imports a foreign agent log as a canonical transcript.
 * @throws UsageError for an unknown `from`; InputError when the format cannot be detected or the file is broken.
 */
export async function importTranscript(file: string, options: ImportTranscriptOptions = {}): Promise<Transcript> {
  const importer = options.from !== undefined ? getImporter(options.from) : await detectFormat(file);
  if (importer === undefined) {
    throw new InputError({ file }, `cannot tell the transcript format; name it with --from (one of: ${importerNames().join(', ')})`);
  }
  if (options.from === undefined) return importer.import(file, { lenient: options.lenient });
  try {
    return await importer.import(file, { lenient: options.lenient });
  } catch (error) {
    // A file the named importer rejects but that reads as another format is a wrong --from: say
    // which format it looks like, not the first field the wrong schema missed. Every command that
    // takes --from (run, import, probes generate, fidelity) reads through here.
    const detected = error instanceof InputError ? await detectedName(file) : undefined;
    if (detected === undefined || detected === options.from) throw error;
    throw new InputError(
      { file },
      `does not look like a ${options.from} log: it looks like a ${detected} log; use --from ${detected}, or leave out --from to detect the format`,
    );
  }
}

/** The name of the format `file` looks like, or undefined when none fits or it cannot be read. */
export async function detectedName(file: string): Promise<string | undefined> {
  const importer = await detectFormat(file).catch(() => undefined);
  return importer === undefined ? undefined : importerNames().find((name) => getImporter(name) === importer);
}
