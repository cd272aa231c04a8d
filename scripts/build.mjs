#!/usr/bin/env node
// The build `npm start` and `npm run bench` run: src/**/*.ts transpiled to dist/ (JavaScript and
// source maps), one file at a time and only the files changed since their last build, without
// type checking. The sources use `verbatimModuleSyntax`, so each file transpiles on its own
// exactly as `tsc` would emit it. Types are checked by `npm test` and `npm run typecheck`; the
// declarations a library user needs come from the full `tsc` build (`npm run build:tsc`, run by
// `npm pack`). A full type-checked build took ~20 s of a 2-core machine; this takes ~2 s, and
// nothing when nothing changed.
//
//   node scripts/build.mjs           transpile what changed
//   node scripts/build.mjs --all     transpile everything
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const configFile = path.join(root, 'tsconfig.build.json');

async function main() {
  const all = process.argv.includes('--all');
  // Nothing changed: done without loading the compiler (most of a second).
  if (!all && sourcesUnder(path.join(root, 'src')).every(({ source, output }) => isFresh(source, output))) {
    process.stderr.write('build: dist/ is up to date\n');
    return;
  }
  const { default: ts } = await import('typescript');
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail(d, ts) });
  if (parsed === undefined || parsed.errors.length > 0) fail(parsed?.errors[0], ts);
  const { options, fileNames } = parsed;
  const rootDir = options.rootDir ?? path.join(root, 'src');
  const outDir = options.outDir ?? path.join(root, 'dist');
  let built = 0;
  for (const source of fileNames) {
    if (source.endsWith('.d.ts')) continue;
    const relative = path.relative(rootDir, source);
    const output = path.join(outDir, relative.replace(/\.ts$/, '.js'));
    if (!all && isFresh(source, output)) continue;
    const result = ts.transpileModule(fs.readFileSync(source, 'utf8'), {
      // The package is `"type": "module"`: nodenext emits ES modules for it, which a file
      // transpiled alone cannot know, so it is told.
      compilerOptions: {
        ...options,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        declaration: false,
        declarationMap: false,
      },
      fileName: source,
      reportDiagnostics: true,
    });
    const errors = (result.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (errors.length > 0) fail(errors[0], ts);
    fs.mkdirSync(path.dirname(output), { recursive: true });
    fs.writeFileSync(output, result.outputText);
    if (result.sourceMapText !== undefined) fs.writeFileSync(`${output}.map`, result.sourceMapText);
    built += 1;
  }
  process.stderr.write(`build: ${built} of ${fileNames.length} files transpiled to ${path.relative(root, outDir)}/\n`);
}

/** Every .ts file under `dir` (declarations aside) and its output under dist/, as tsconfig.build.json maps them. */
function sourcesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const source = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(source);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) return [];
    return [{ source, output: path.join(root, 'dist', path.relative(path.join(root, 'src'), source).replace(/\.ts$/, '.js')) }];
  });
}

/** The output exists and is newer than its source. */
function isFresh(source, output) {
  try {
    return fs.statSync(output).mtimeMs >= fs.statSync(source).mtimeMs;
  } catch {
    return false;
  }
}

function fail(diagnostic, ts) {
  const message = diagnostic === undefined ? 'cannot read tsconfig.build.json' : ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  const where = diagnostic?.file !== undefined ? `${path.relative(root, diagnostic.file.fileName)}: ` : '';
  process.stderr.write(`build: ${where}${message}\n`);
  process.exit(2);
}

await main();
