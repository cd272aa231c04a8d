import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { statSync } from 'node:fs';
import { GateError, UsageError } from '../errors.js';
import { checkLike, fitLogFiles, generateLikeSessions, loadFitFile, type CheckResult, type LikeFit } from '../like/index.js';
import { extractNeededUses } from '../probes/needed/extract.js';
import { countSteps } from '../transcript/structure.js';
import { writeTranscript } from '../transcript/write.js';
import type { Transcript } from '../transcript/types.js';
import { displayPath } from '../paths.js';

/** The flags of `generate --like`. */
export interface LikeFlags {
  like: string[];
  /** A fit.json to draw from instead of fitting `like` (which --check still takes as A). */
  fit?: string;
  count?: number;
  steps?: number;
  seed?: number;
  check?: string[];
  window?: number;
  strategies?: string[];
  workers?: number;
  from?: string;
}

/** How far below real A vs real B the generated sessions' Spearman may fall before `--check` fails. */
const CHECK_TOLERANCE = 0.1;

/**
 * `generate --like <logs...> -o <folder>`: fits the logs, writes `fit.json` and the sessions drawn
 * from it; with `--check <logs...>`, ranks the strategies on the real logs, the unseen ones and
 * the generated sessions, prints the Spearman figures and writes them as `check.json`.
 */
export async function runGenerateLike(flags: LikeFlags, out: string | undefined): Promise<void> {
  if (out === undefined) throw new UsageError('generate --like needs -o <folder>: it writes fit.json and one file per session');
  if (statSync(out, { throwIfNoEntry: false })?.isFile() === true)
    throw new UsageError(`-o ${displayPath(out)} is a file: give the folder to write the sessions in`);
  if (flags.check !== undefined && flags.like.length === 0) throw new UsageError('--check needs --like <logs...>: the real logs A the sessions stand for');
  const fit = await fitOf(flags);
  const sessions = generateLikeSessions(fit, {
    count: flags.count ?? (flags.like.length > 0 ? flags.like.length : fit.logs),
    seed: flags.seed ?? 1,
    ...(flags.steps !== undefined ? { steps: flags.steps } : {}),
  });
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'fit.json'), `${JSON.stringify(fit, null, 2)}\n`, 'utf8');
  const reused = flags.fit !== undefined ? `, read from ${displayPath(flags.fit)}` : '';
  process.stdout.write(
    `${displayPath(join(out, 'fit.json'))}: fit of ${fit.logs} log${fit.logs === 1 ? '' : 's'} (${Object.keys(fit.formats).join(', ')})${reused}\n`,
  );
  const files = await writeSessions(sessions, out);
  if (flags.check === undefined) return;
  const result = await checkAgainst(flags, flags.check, files);
  await writeFile(join(out, 'check.json'), `${JSON.stringify(result, null, 2)}\n`, 'utf8');
  process.stdout.write(renderCheck(result));
  const short = [result.saving, result.neededRecall].some(
    (s) => s.realAvsB !== null && s.generatedVsB !== null && s.generatedVsB < s.realAvsB - CHECK_TOLERANCE,
  );
  if (short)
    throw new GateError(`the generated sessions rank the strategies more than ${CHECK_TOLERANCE} further from real B than real A does (Spearman above)`);
}

/** The fit of `--fit` as it was written, or of the `--like` logs. */
function fitOf(flags: LikeFlags): Promise<LikeFit> {
  if (flags.fit !== undefined) return loadFitFile(flags.fit);
  return fitLogFiles(flags.like, flags.from !== undefined ? { from: flags.from } : {});
}

async function writeSessions(sessions: readonly Transcript[], out: string): Promise<string[]> {
  const files: string[] = [];
  for (const [i, session] of sessions.entries()) {
    const file = join(out, `like-${String(i + 1).padStart(3, '0')}.ctx.jsonl`);
    await writeTranscript(session, file);
    files.push(file);
    process.stdout.write(`${displayPath(file)}: ${countSteps(session.events)} steps, ${extractNeededUses(session).length} needed uses\n`);
  }
  return files;
}

/** Copies A, B and the sessions into folders of their own (a folder of logs is one corpus) and runs the check. */
async function checkAgainst(flags: LikeFlags, unseen: readonly string[], generated: readonly string[]): Promise<CheckResult> {
  const seen = new Set(flags.like.map((f) => resolve(f)));
  const shared = unseen.filter((f) => seen.has(resolve(f)));
  if (shared.length > 0) throw new UsageError(`--check must name logs the fit did not see; also in --like: ${shared.join(', ')}`);
  if (unseen.length === 0) throw new UsageError('--check needs at least one log');
  const root = await mkdtemp(join(tmpdir(), 'ctxbench-like-'));
  try {
    const folders = { realA: join(root, 'real-a'), realB: join(root, 'real-b'), generated: join(root, 'generated-like-a') };
    await copyAll(flags.like, folders.realA);
    await copyAll(unseen, folders.realB);
    await copyAll(generated, folders.generated);
    process.stdout.write(
      `ranking the strategies on ${flags.like.length} real logs (A), ${unseen.length} unseen (B) and ${generated.length} generated like A …\n`,
    );
    return await checkLike({
      ...folders,
      ...(flags.window !== undefined ? { window: flags.window } : {}),
      ...(flags.strategies !== undefined ? { strategies: flags.strategies } : {}),
      ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
      ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
    });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Copies files into a new folder, numbered so that two logs of one name stay two. */
async function copyAll(files: readonly string[], folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (const [i, file] of files.entries()) await copyFile(file, join(folder, `${String(i + 1).padStart(3, '0')}-${basename(file)}`));
}

function renderCheck(result: CheckResult): string {
  const cell = (v: number | null): string => (v === null ? '–' : v.toFixed(3));
  const lines = [
    `window ${result.window.toLocaleString('en-US')} tokens, mocked providers; saving vs full and needed recall per set (A = the fitted logs, B = unseen, G = generated like A):`,
    'strategy                      saving A  saving B  saving G  needed A  needed B  needed G',
    ...result.rows.map(
      (r) =>
        `${r.strategy.padEnd(28)}  ${[r.saving.realA, r.saving.realB, r.saving.generated, r.neededRecall.realA, r.neededRecall.realB, r.neededRecall.generated].map((v) => cell(v).padStart(8)).join('  ')}`,
    ),
    `Spearman, saving:        real A vs real B ${cell(result.saving.realAvsB)}, generated-like-A vs real B ${cell(result.saving.generatedVsB)}`,
    `Spearman, needed recall: real A vs real B ${cell(result.neededRecall.realAvsB)}, generated-like-A vs real B ${cell(result.neededRecall.generatedVsB)}`,
  ];
  return `${lines.join('\n')}\n`;
}
