import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A fresh temporary folder for one test. */
export function tempDir(prefix = 'ctxbench-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes `files` (relative path → text) under a fresh temporary folder and returns it. */
export function writeFiles(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [path, text] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return dir;
}
