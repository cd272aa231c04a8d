import { readSync } from 'node:fs';

/**
 * `length` bytes of the open file `fd` from `offset`, read until all are in (a read may return
 * fewer). A file that ends first is `short()`, thrown: a file cut short never loops or reads as
 * zeros.
 */
export function readRange(fd: number, offset: number, length: number, short: () => Error): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let done = 0; done < length;) {
    const read = readSync(fd, bytes, done, length - done, offset + done);
    if (read === 0) throw short();
    done += read;
  }
  return bytes;
}
