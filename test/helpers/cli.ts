import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

/** Runs the CLI in-process; returns the exit code and what it wrote to stdout and stderr. */
export async function cli(args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  try {
    return { code: await main(args), stderr, stdout };
  } finally {
    err.mockRestore();
    out.mockRestore();
  }
}
