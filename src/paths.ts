import { stat } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { InputError } from './errors.js';

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
 * Raises InputError when `file` exists but is not a regular file (a FIFO, a device, a socket, a
 * folder): reading one would block until a writer comes, or forever, and no signal could end the
 * run while the read waits. A file that does not exist is left to the reader, which names it.
 * `what` names what the file was meant to be (`the transcript`).
 */
export async function refuseIrregularFile(file: string, what: string): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (info === undefined || info.isFile()) return;
  const kind = info.isFIFO()
    ? 'a FIFO'
    : info.isDirectory()
      ? 'a folder'
      : info.isCharacterDevice() || info.isBlockDevice()
        ? 'a device'
        : info.isSocket()
          ? 'a socket'
          : 'not a file';
  throw new InputError({ file: displayPath(file) }, `${what} is ${kind}, not a regular file: ctxbench reads only regular files`);
}
