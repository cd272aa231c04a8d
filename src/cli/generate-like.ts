import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { statSync } from 'node:fs';
import { GateError, UsageError } from '../errors.js';
import {
  CHECK_TOLERANCE,
  checkLike,
  fitLogFiles,
  generateLikeSessions,
  loadFitFile,
  renderCheck,
  shortfallsOf,
  type CheckResult,
  seedDependence,
  unsteadyPasses,
  type LikeFit,
} from '../like/index.js';
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
  /** With `check`: draw the sessions with this many seeds, `seed` on, and judge on the mean. */
  seeds?: number;
  check?: string[];
  window?: number;
  strategies?: string[];
  workers?: number;
  from?: string;
}

/** Seeds `--check` draws sessions with when `--seeds` is not given (docs/scenarios.md: what they cost). */
const CHECK_SEEDS = 3;

/**
 * `generate --like <logs...> -o <folder>`: fits the logs, writes `fit.json` and the sessions drawn
 * from it; with `--check <logs...>`, draws them with each of `--seeds` seeds (each seed's in
 * `seed-<s>/` when there are several), ranks the strategies on the real logs, the unseen ones and
 * each seed's sessions, prints the Spearman figures per seed, their mean, the pooled ones (all
 * seeds' sessions together) and how far those rest on the seeds drawn (resampled), writes them as
 * `check.json`, and fails when a pooled figure falls short of its line.
 */
export async function runGenerateLike(flags: LikeFlags, out: string | undefined): Promise<void> {
  if (out === undefined) throw new UsageError('generate --like needs -o <folder>: it writes fit.json and one file per session');
  if (statSync(out, { throwIfNoEntry: false })?.isFile() === true)
    throw new UsageError(`-o ${displayPath(out)} is a file: give the folder to write the sessions in`);
  if (flags.check !== undefined && flags.like.length === 0) throw new UsageError('--check needs --like <logs...>: the real logs A the sessions stand for');
  if (flags.seeds !== undefined && flags.check === undefined)
    throw new UsageError('--seeds goes with --check: it judges the check on the sessions of all seeds together');
  const fit = await fitOf(flags);
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'fit.json'), `${JSON.stringify(fit, null, 2)}\n`, 'utf8');
  const reused = flags.fit !== undefined ? `, read from ${displayPath(flags.fit)}` : '';
  process.stdout.write(
    `${displayPath(join(out, 'fit.json'))}: fit of ${fit.logs} log${fit.logs === 1 ? '' : 's'} (${Object.keys(fit.formats).join(', ')})${reused}\n`,
  );
  const first = flags.seed ?? 1;
  const seeds = Array.from({ length: flags.check === undefined ? 1 : (flags.seeds ?? CHECK_SEEDS) }, (_, i) => first + i);
  const generated = [];
  for (const seed of seeds) {
    const sessions = generateLikeSessions(fit, {
      count: flags.count ?? (flags.like.length > 0 ? flags.like.length : fit.logs),
      seed,
      ...(flags.steps !== undefined ? { steps: flags.steps } : {}),
    });
    generated.push({ seed, files: await writeSessions(sessions, seeds.length === 1 ? out : join(out, `seed-${seed}`)) });
  }
  if (flags.check === undefined) return;
  const result = await checkAgainst(flags, flags.check, generated);
  await writeFile(join(out, 'check.json'), `${JSON.stringify(result, null, 2)}\n`, 'utf8');
  process.stdout.write(renderCheck(result));
  const short = shortfallsOf(result);
  const unsteady = unsteadyPasses(result);
  if (unsteady.length > 0) process.stdout.write(`note: the pooled line holds on ${unsteady.join(' and ')}${seedDependence(result, unsteady)}\n`);
  if (short.length > 0)
    throw new GateError(
      `the generated sessions rank the strategies more than ${CHECK_TOLERANCE} further from real B than real A does on ${short.join(' and ')} (${seeds.length === 1 ? 'one seed' : `the ${seeds.length} seeds' sessions together, the pooled line`}, above)${seedDependence(result, short)}`,
    );
}

/** The fit of `--fit` as it was written, or of the `--like` logs. */
function fitOf(flags: LikeFlags): Promise<LikeFit> {
  if (flags.fit !== undefined) return loadFitFile(flags.fit);
  return fitLogFiles(flags.like, flags.from !== undefined ? { from: flags.from } : {});
}

async function writeSessions(sessions: readonly Transcript[], out: string): Promise<string[]> {
  await mkdir(out, { recursive: true });
  const files: string[] = [];
  for (const [i, session] of sessions.entries()) {
    const file = join(out, `like-${String(i + 1).padStart(3, '0')}.ctx.jsonl`);
    await writeTranscript(session, file);
    files.push(file);
    process.stdout.write(`${displayPath(file)}: ${countSteps(session.events)} steps, ${extractNeededUses(session).length} needed uses\n`);
  }
  return files;
}

/** Copies A, B and each seed's sessions into folders of their own (a folder of logs is one corpus) and runs the check. */
async function checkAgainst(
  flags: LikeFlags,
  unseen: readonly string[],
  generated: readonly { seed: number; files: readonly string[] }[],
): Promise<CheckResult> {
  const seen = new Set(flags.like.map((f) => resolve(f)));
  const shared = unseen.filter((f) => seen.has(resolve(f)));
  if (shared.length > 0) throw new UsageError(`--check must name logs the fit did not see; also in --like: ${shared.join(', ')}`);
  if (unseen.length === 0) throw new UsageError('--check needs at least one log');
  const root = await mkdtemp(join(tmpdir(), 'ctxbench-like-'));
  try {
    const folders = { realA: join(root, 'real-a'), realB: join(root, 'real-b') };
    await copyAll(flags.like, folders.realA);
    await copyAll(unseen, folders.realB);
    const seeds = [];
    for (const { seed, files } of generated) {
      const folder = join(root, `generated-like-a-seed-${seed}`);
      await copyAll(files, folder);
      seeds.push({ seed, folder });
    }
    const count = generated[0]?.files.length ?? 0;
    process.stdout.write(
      `ranking the strategies on ${flags.like.length} real logs (A), ${unseen.length} unseen (B) and ${count} generated like A with each of ${generated.length} seed${generated.length === 1 ? '' : 's'} …\n`,
    );
    return await checkLike({
      ...folders,
      generated: seeds,
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
