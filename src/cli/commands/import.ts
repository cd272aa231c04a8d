import type { Command } from 'commander';
import { detectedName, importTranscript, importerNames } from '../../transcript/importers/index.js';
import { serializeTranscript, writeTranscript } from '../../transcript/write.js';
import { readTranscript } from '../../transcript/read.js';
import { isCanonicalFile } from '../../scenario/load-transcript.js';
import { addExamples, addOutOption, outOf } from '../options.js';
import { checkOutFile } from '../out-dir.js';
import type { Transcript } from '../../transcript/types.js';
import { displayPath } from '../../paths.js';
import { extname } from 'node:path';
import { UsageError } from '../../errors.js';
import { importClaudeSidechains } from '../../transcript/claude-sidechains.js';
import { InputError } from '../../errors.js';
import { describeRedacted, redactTranscriptEvents } from '../../redact/transcript.js';

/** Skipped lines listed with their reason; more would bury the counts. */
const SHOWN_SKIPS = 10;

interface ImportFlags {
  from?: string;
  lenient?: boolean;
  sidechains?: boolean;
  out?: string;
  output?: string;
  redact: boolean;
}

/** What an import produced, as the command prints it. */
interface ImportCounts {
  messages: number;
  steps: number;
  toolCalls: number;
  unknownTypes: Record<string, number>;
  skippedLines: number;
}

export function register(program: Command): void {
  const command = program
    .command('import')
    .description('convert a real agent log into a canonical transcript (*.ctx.jsonl)')
    .argument('<file>', 'the agent log')
    .option('--from <format>', `the log's format (default: detected; one of ${importerNames().join(', ')})`)
    .option('--lenient', 'skip broken lines and count them instead of failing')
    .option('--no-redact', 'write secrets found in the log as they are (default: masked, and counted on stderr)')
    .option('--sidechains', 'Claude Code: also write each subagent conversation as a transcript of its own (<out>.sidechain-<n>.ctx.jsonl)');
  addOutOption(command, 'where to write the canonical transcript (default: stdout, and what it holds to stderr)');
  addExamples(command, [
    ['ctxbench import ~/.claude/projects/p/s.jsonl -o s.ctx.jsonl', 'a Claude Code session (format detected)'],
    ['ctxbench import rollout.jsonl --from codex | head', 'to stdout, the format named'],
    ['ctxbench import s.jsonl --sidechains -o s.ctx.jsonl', 'also each subagent conversation, beside s.ctx.jsonl'],
  ]);
  command.action(async (file: string, flags: ImportFlags) => {
    const lenient = flags.lenient === true;
    const out = outOf(flags);
    if (out !== undefined) checkOutFile(out);
    if (flags.sidechains === true && out === undefined) throw new UsageError('--sidechains writes a file per subagent conversation beside -o <file>: give -o');
    const transcript = redactImport(await readLog(file, flags.from, lenient), flags.redact);
    refuseEmptyImport(transcript, flags.from, await detectedName(file));
    if (out === undefined) {
      process.stdout.write(serializeTranscript(transcript));
      process.stderr.write(formatCounts(transcript, '(stdout)'));
      return;
    }
    await writeTranscript(transcript, out);
    process.stdout.write(formatCounts(transcript, out));
    if (flags.sidechains !== true) return;
    if (transcript.header.source?.format !== 'claude-code')
      throw new UsageError(`--sidechains reads Claude Code logs; ${displayPath(file)} is ${transcript.header.source?.format ?? 'unknown'}`);
    const sidechains = (await importClaudeSidechains(file, { lenient })).map((sidechain) => redactImport(sidechain, flags.redact));
    for (const [i, sidechain] of sidechains.entries()) {
      const path = sidechainPath(out, i + 1);
      await writeTranscript(sidechain, path);
      process.stdout.write(formatCounts(sidechain, path));
    }
  });
}

/**
 * The log as a transcript: a canonical one (its first line a session header) read and checked
 * line by line as `run` reads it, so a broken line is named (and `import` of a canonical file
 * masks its secrets); any other log through its importer, the format named or detected.
 */
async function readLog(file: string, from: string | undefined, lenient: boolean): Promise<Transcript> {
  if (from === undefined && (await isCanonicalFile(file))) return readTranscript(file, { lenient });
  return importTranscript(file, { from, lenient });
}

/**
 * The transcript as it is written: its secrets masked (a line on stderr counts them), or, with
 * `--no-redact`, kept, and the line says how many were kept.
 */
function redactImport(transcript: Transcript, redact: boolean): Transcript {
  const { events, found } = redactTranscriptEvents(transcript.events);
  const counted = describeRedacted(found);
  if (counted !== undefined) {
    const what = redact ? `${counted}; --no-redact keeps them` : `${counted.replace(' redacted', ' kept as they are')} (--no-redact)`;
    process.stderr.write(`ctxbench: ${displayPath(transcript.file)}: ${what}\n`);
  }
  return redact ? { ...transcript, events } : transcript;
}

/** `session.ctx.jsonl` → `session.sidechain-2.ctx.jsonl`. */
function sidechainPath(out: string, n: number): string {
  const suffix = out.endsWith('.ctx.jsonl') ? '.ctx.jsonl' : extname(out);
  return `${out.slice(0, out.length - suffix.length)}.sidechain-${n}${suffix}`;
}

/** An import that found no message read the wrong format (or an empty log): exit 2, not an empty file. */
function refuseEmptyImport(transcript: Transcript, from: string | undefined, detected: string | undefined): void {
  if (transcript.events.some((event) => event.type === 'message')) return;
  const format = transcript.header.source?.format ?? from ?? 'the detected format';
  const skipped = transcript.skipped.length > 0 ? ` (${transcript.skipped.length} lines skipped)` : '';
  const looksLike = detected !== undefined && detected !== from ? ` it looks like a ${detected} log: use --from ${detected}, or` : '';
  const hint = from !== undefined ? `; is it a ${from} log?${looksLike} leave out --from to detect the format` : '';
  throw new InputError({ file: displayPath(transcript.file) }, `read as ${format}, it holds no messages${skipped}${hint}: nothing to import`);
}

function countImport(transcript: Transcript): ImportCounts {
  const messages = transcript.events.filter((event) => event.type === 'message');
  const steps = messages.filter((message) => message.role === 'assistant');
  return {
    messages: messages.length,
    steps: steps.length,
    toolCalls: steps.reduce((sum, step) => sum + (step.toolCalls?.length ?? 0), 0),
    unknownTypes: transcript.unknown,
    skippedLines: transcript.skipped.length,
  };
}

function formatCounts(transcript: Transcript, out: string): string {
  const counts = countImport(transcript);
  const unknown = Object.entries(counts.unknownTypes).map(([type, n]) => `${type} ×${n}`);
  return [
    `${displayPath(transcript.file)} (${transcript.header.source?.format ?? 'unknown format'}) → ${displayPath(out)}`,
    `  messages ${counts.messages}, steps ${counts.steps}, tool calls ${counts.toolCalls}`,
    `  unknown types ${unknown.length === 0 ? 'none' : unknown.join(', ')}`,
    `  skipped lines ${counts.skippedLines}`,
    ...transcript.skipped.slice(0, SHOWN_SKIPS).map((skip) => `    line ${skip.line}: ${skip.reason}`),
    ...(counts.skippedLines > SHOWN_SKIPS ? [`    … and ${counts.skippedLines - SHOWN_SKIPS} more`] : []),
    '',
  ].join('\n');
}
