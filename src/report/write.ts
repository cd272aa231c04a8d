import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { ReportFile } from './types.js';
import { redactText } from '../redact/index.js';

export interface WriteOptions {
  /** Mask secret-shaped strings in every file (default true); `false` for `--no-redact`. */
  redact?: boolean;
}

/**
 * Writes rendered report files under `dir` (created with its parents) and returns their paths, in
 * order. The only place reports touch the disk, and so the single point every artifact passes
 * through the redactor (unless `redact: false`). A file that would land outside `dir` is refused,
 * so a reporter's file name can never overwrite anything else. Each file is written whole under a
 * temporary name and renamed over the old one: a reader, or a run killed mid-write, sees the old
 * file or the new one, never half of one.
 */
export async function writeReportFiles(dir: string, files: readonly ReportFile[], options: WriteOptions = {}): Promise<string[]> {
  const root = resolve(dir);
  const targets = files.map((file) => ({ path: targetPath(root, file.file), file }));
  const paths: string[] = [];
  for (const { path, file } of targets) {
    if (file.bytes !== undefined) await writeBytesAtomic(path, file.bytes());
    else await writeFileAtomic(path, file.parts ?? file.contents, options);
    paths.push(path);
  }
  return paths;
}

/**
 * Writes one text file atomically (temporary name, then rename), redacted unless told not to. Text
 * in parts is redacted and written one part at a time, so only one part is ever copied.
 */
export async function writeFileAtomic(path: string, contents: string | Iterable<string>, options: WriteOptions = {}): Promise<void> {
  await writeAtomic(path, async (handle) => {
    for (const part of typeof contents === 'string' ? [contents] : contents)
      await handle.write(options.redact === false ? part : redactText(part), null, 'utf8');
  });
}

/** Writes a binary file atomically, chunk by chunk (temporary name, then rename). */
async function writeBytesAtomic(path: string, chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<void> {
  await writeAtomic(path, async (handle) => {
    for await (const chunk of chunks) if (chunk.length > 0) await handle.write(chunk);
  });
}

/** Runs `write` on a temporary file beside `path`, then renames it over `path`; on failure the temporary file is removed. */
async function writeAtomic(path: string, write: (handle: FileHandle) => Promise<void>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const handle = await open(temporary, 'w');
    try {
      await write(handle);
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

function targetPath(root: string, file: string): string {
  const path = resolve(root, file);
  const inside = relative(root, path);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    throw new RangeError(`report file "${file}" is outside the report directory ${root}`);
  }
  return path;
}
