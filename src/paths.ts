import { isAbsolute, relative, sep } from 'node:path';

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
