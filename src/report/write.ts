import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { ReportFile } from './types.js';

/**
 * Writes rendered report files under `dir` (created with its parents) and returns their paths, in
 * order. The only place reports touch the disk. A file that would land outside `dir` is refused,
 * so a reporter's file name can never overwrite anything else.
 */
export async function writeReportFiles(dir: string, files: readonly ReportFile[]): Promise<string[]> {
  const root = resolve(dir);
  const targets = files.map((file) => ({ path: targetPath(root, file.file), contents: file.contents }));
  const paths: string[] = [];
  for (const target of targets) {
    await mkdir(dirname(target.path), { recursive: true });
    await writeFile(target.path, target.contents, 'utf8');
    paths.push(target.path);
  }
  return paths;
}

function targetPath(root: string, file: string): string {
  const path = resolve(root, file);
  const inside = relative(root, path);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
    throw new RangeError(`report file "${file}" is outside the report directory ${root}`);
  }
  return path;
}
