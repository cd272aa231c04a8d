import { relative, sep } from 'node:path';

/**
 * A path as results show it: relative to the working directory, with forward slashes, so a
 * result file is the same on every machine that runs the suite from the project root.
 */
export function displayPath(path: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, path);
  return (rel === '' ? '.' : rel).split(sep).join('/');
}
