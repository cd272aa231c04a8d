import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { transformWithOxc } from 'vite';
import { tempDir } from './temp.js';

const root = resolve(import.meta.dirname, '../..');
let built: Promise<string> | undefined;

/**
 * The project's sources as runnable JavaScript in a temporary package (dist/ beside a copy of
 * package.json and links to node_modules, docs and scenarios), for what vitest cannot run from
 * TypeScript: worker threads and clean child processes. Each file is stripped of its types on
 * its own by the transform vitest itself runs the tests through (vite's oxc), in well under a
 * second: no type check and no whole-project compile (typechecking is `npm test`'s first half),
 * and never a stale dist/. Once per test process.
 */
export function transpiledPackage(): Promise<string> {
  built ??= transpile();
  return built;
}

async function transpile(): Promise<string> {
  const dir = tempDir('ctxbench-js-');
  await Promise.all(
    sourceFiles(join(root, 'src')).map(async (file) => {
      const out = join(dir, 'dist', relative(join(root, 'src'), file)).replace(/\.ts$/, '.js');
      const { code } = await transformWithOxc(readFileSync(file, 'utf8'), file, { lang: 'ts', sourcemap: false });
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, code);
    }),
  );
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
  for (const link of ['node_modules', 'docs', 'scenarios']) symlinkSync(join(root, link), join(dir, link), 'dir');
  return dir;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}
