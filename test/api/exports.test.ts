import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The library's public names, per entry of package.json `exports`, types included: a change to any
 * list fails here until the list below is changed with it (and CHANGELOG.md says so).
 */
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, { types: string; default: string }> };
const sourceOf = (target: string): string => target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
const entries = Object.entries(pkg.exports).map(([subpath, target]) => ({ subpath, file: sourceOf(target.default) }));

const program = ts.createProgram(
  entries.map((entry) => entry.file),
  { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true },
);
const checker = program.getTypeChecker();

function exportedNames(file: string): string[] {
  const source = program.getSourceFile(file);
  const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (symbol === undefined) throw new Error(`${file}: not a module`);
  return checker
    .getExportsOfModule(symbol)
    .map((s) => s.name)
    .sort();
}

describe('the public API', () => {
  it('maps every subpath of package.json exports to a source entry with its declarations beside it', () => {
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      expect(target.types, subpath).toBe(target.default.replace(/\.js$/, '.d.ts'));
    }
    expect(entries.map((e) => e.subpath)).toEqual(['.', './run', './strategies', './transcript', './importers', './reports', './check', './providers']);
  });

  it('exports at most 40 names from the package root', () => {
    expect(exportedNames('src/index.ts').length).toBeLessThanOrEqual(40);
  });

  it('exports exactly these names, entry by entry', () => {
    const lists = Object.fromEntries(entries.map(({ subpath, file }) => [subpath, exportedNames(file)]));
    expect(lists).toMatchSnapshot();
  });

  it('leaves command-line parsers out of the library', () => {
    const all = entries.flatMap(({ file }) => exportedNames(file));
    for (const parser of ['parseGridFlag', 'parseShard', 'choosePoints']) expect(all).not.toContain(parser);
  });
});
