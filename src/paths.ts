import { basename, isAbsolute, relative, sep } from 'node:path';

/** A path the user typed, as messages echo it: as typed (absolute or relative), without a trailing slash. */
export function givenPath(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  return (trimmed === '' ? path : trimmed).split(sep).join('/');
}

/**
 * A path as messages and results show it: relative to the working directory when it lies under
 * it (so a result file is the same on every machine that runs the suite from the project root),
 * else absolute as it is (`/tmp/out`, never `../../../tmp/out`), with forward slashes. Either form
 * names the same file for this process, so loaders may read through it.
 */
export function displayPath(path: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, path);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return path.split(sep).join('/');
  return (rel === '' ? '.' : rel).split(sep).join('/');
}

/**
 * A path as an artifact (result.json and every report) records it: as `displayPath` shows it
 * when it lies under the working directory, else relative to `base` (the folder of the scenario
 * file that named it; a file's own folder gives its name). Never absolute: a result names no
 * home folder, and the same suite run from a checkout anywhere writes the same result.
 */
export function artifactPath(path: string, base: string, cwd: string = process.cwd()): string {
  const shown = displayPath(path, cwd);
  if (!isAbsolute(shown)) return shown;
  const rel = relative(base, path);
  if (rel === '') return basename(path);
  return isAbsolute(rel) ? basename(path) : rel.split(sep).join('/');
}
