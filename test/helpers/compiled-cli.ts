import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './temp.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');

/**
 * Compiles the sources with the project's own tsc into a temporary folder (never a stale dist/),
 * beside a copy of package.json and a link to node_modules, and returns the path of the CLI's
 * main.js: for tests that must run the CLI as its own process (signals, kills, two processes).
 */
export async function compileCli(): Promise<string> {
  const build = tempDir('ctxbench-build-');
  copyFileSync(join(root, 'package.json'), join(build, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(build, 'node_modules'), 'dir');
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  // Type errors elsewhere in a work in progress must not stop the emit: tsc emits regardless.
  await run(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', join(build, 'dist'), '--sourceMap', 'false', '--declaration', 'false'], { cwd: root }).catch(() => undefined);
  const cli = join(build, 'dist', 'cli', 'main.js');
  if (!existsSync(cli)) throw new Error('tsc emitted no dist/cli/main.js');
  return cli;
}
