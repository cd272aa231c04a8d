import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFolderGraph, describeCycle, findCycles, importsOf, layerViolations, parseLayers, readTree } from './folder-graph.js';

const srcRoot = path.resolve(import.meta.dirname, '../../src');
const architecture = readFileSync(path.resolve(import.meta.dirname, '../../docs/ARCHITECTURE.md'), 'utf8');

describe('import graph of src/', () => {
  it('has no folder-level cycle', () => {
    const graph = buildFolderGraph(readTree(srcRoot));
    const cycles = findCycles(graph).map((cycle) => describeCycle(graph, cycle));
    expect(cycles.join('\n\n')).toBe('');
  });

  it('only imports downwards through the layers of docs/ARCHITECTURE.md', () => {
    const layers = parseLayers(architecture);
    expect(layers.get('transcript')).toBe(2);
    expect(layers.get('cli')).toBe(14);
    expect(layerViolations(buildFolderGraph(readTree(srcRoot)), layers)).toEqual([]);
  });
});

describe('the folder map of docs/ARCHITECTURE.md', () => {
  it('gives every folder of src/ a row, and names only folders that exist', () => {
    const mapped = [...architecture.matchAll(/^\| `src\/([a-z-]+)\/` \|/gm)].map((row) => row[1] as string).sort();
    const folders = readdirSync(srcRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(mapped).toEqual(folders);
  });

  it('answers "where is it" with folders that exist', () => {
    const answers = [...architecture.matchAll(/^- [^\n]*: `src\/([a-z-]+)\/`$/gm)].map((line) => line[1] as string);
    expect(answers).toEqual(['simulator', 'quota', 'replay', 'run']);
    for (const folder of answers) expect(existsSync(path.join(srcRoot, folder))).toBe(true);
  });
});

describe('layerViolations', () => {
  it('names an import that goes up or sideways, and a folder in no layer', () => {
    const files = new Map([
      ['engine/run.ts', "import { g } from '../probes/grade.js';\nimport { r } from '../report/render.js';\nexport const run = [g, r];\n"],
      ['probes/grade.ts', "import { E } from '../errors.js';\nimport { n } from '../extra/new.js';\nexport const g = [E, n];\n"],
      ['report/render.ts', 'export const r = 1;\n'],
      ['extra/new.ts', 'export const n = 1;\n'],
    ]);
    const layers = parseLayers('| layer | folders |\n|---|---|\n| 1 | `errors.ts` |\n| 2 | `probes`, `report` |\n| 3 | `engine` |\n');
    expect(layerViolations(buildFolderGraph(files), layers)).toEqual(['extra is in no layer of docs/ARCHITECTURE.md']);
    const wrong = parseLayers('| 1 | `errors.ts`, `extra` |\n| 2 | `probes`, `report`, `engine` |\n');
    expect(layerViolations(buildFolderGraph(files), wrong)).toEqual([
      'engine (layer 2) → probes (layer 2): engine/run.ts → ../probes/grade.js',
      'engine (layer 2) → report (layer 2): engine/run.ts → ../report/render.js',
    ]);
  });
});

describe('findCycles', () => {
  it('names a synthetic two-folder cycle made by a type-only import', () => {
    const files = new Map([
      ['engine/run.ts', "import { grade } from '../probes/grade.js';\nexport const run = grade;\n"],
      ['probes/grade.ts', "import type { Gateway } from '../engine/gate.js';\nexport const grade = (g: Gateway) => g;\n"],
      ['engine/gate.ts', 'export interface Gateway { id: string }\n'],
      ['errors.ts', 'export class E {}\n'],
    ]);
    const graph = buildFolderGraph(files);
    expect(findCycles(graph)).toEqual([['engine', 'probes', 'engine']]);
    expect(describeCycle(graph, ['engine', 'probes', 'engine'])).toBe(
      'engine → probes → engine\n  engine → probes: engine/run.ts → ../probes/grade.js\n  probes → engine: probes/grade.ts → ../engine/gate.js',
    );
  });

  it('finds a three-folder cycle through a dynamic import and a re-export', () => {
    const files = new Map([
      ['a/x.ts', "export * from '../b/y.js';\n"],
      ['b/y.ts', "export const y = () => import('../c/z.js');\n"],
      ['c/z.ts', "import '../a/x.js';\n"],
    ]);
    expect(findCycles(buildFolderGraph(files))).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('passes a tree whose folders only import downwards and top-level files', () => {
    const files = new Map([
      ['index.ts', "export * from './engine/run.js';\n"],
      ['engine/run.ts', "import { E } from '../errors.js';\nimport { g } from '../probes/grade.js';\nexport const run = [E, g];\n"],
      ['probes/grade.ts', "import { E } from '../errors.js';\nexport const g = E;\n"],
      ['errors.ts', 'export class E {}\n'],
    ]);
    expect(findCycles(buildFolderGraph(files))).toEqual([]);
  });
});

describe('importsOf', () => {
  it('reads static, type-only, re-exported and dynamic specifiers, and skips packages', () => {
    const source = [
      "import { z } from 'zod';",
      "import type { A } from './a.js';",
      "import { type B, c } from './b.js';",
      "export { d } from '../d.js';",
      "const e = await import('./e.js');",
      "type F = import('./f.js').F;",
    ].join('\n');
    expect(importsOf('x.ts', source)).toEqual([
      { specifier: './a.js', typeOnly: true },
      { specifier: './b.js', typeOnly: false },
      { specifier: '../d.js', typeOnly: false },
      { specifier: './e.js', typeOnly: false },
      { specifier: './f.js', typeOnly: true },
    ]);
  });
});

describe('CLI commands', () => {
  it('share helpers through modules of their own, never by importing another command', () => {
    const tree = readTree(path.join(srcRoot, 'cli'));
    const crossImports = [...tree]
      .filter(([file]) => file.startsWith('commands/'))
      .flatMap(([file, source]) => importsOf(file, source).map((site) => `${file} → ${site.specifier}`))
      .filter((line) => /→ \.\/[^/]+$/.test(line));
    expect(crossImports).toEqual([]);
  });
});
