import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliDeps } from '../../src/cli/run-session.js';

/** Whether a `cli` call is capturing the process's streams right now. */
let capturing = false;

/**
 * Runs the CLI in-process; returns the exit code and what it wrote to stdout and stderr. The
 * streams are the process's: two calls at once cannot tell whose lines are whose, so a second
 * concurrent call fails loudly instead of capturing the other's output (capture once around both).
 */
export async function cli(args: string[], deps: CliDeps = {}): Promise<{ code: number; stderr: string; stdout: string }> {
  if (capturing) throw new Error('cli(): another in-process run is capturing stdout/stderr; spy once around concurrent runs');
  capturing = true;
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
    return { code: await main(args, deps), stderr, stdout };
  } finally {
    err.mockRestore();
    out.mockRestore();
    capturing = false;
  }
}
