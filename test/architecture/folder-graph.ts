import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The folder-level import graph of a source tree, and its cycles (docs/ARCHITECTURE.md).
 *
 * A node is a top-level folder of the tree (`engine`, `probes`, …; subfolders belong to their
 * top-level folder) or a single file at the top level (`errors.ts`, `index.ts`), so that the
 * public barrel `index.ts` may import every folder while every folder imports `errors.ts`.
 *
 * Type-only imports count: a folder that needs another folder's types cannot be read, changed or
 * moved without it, which is the coupling the layout is meant to show. Dynamic `import()` counts
 * too. Only relative specifiers are followed; packages are outside the graph.
 */

/** One import of a file: the relative specifier and whether it is `import type` / `export type`. */
export interface ImportSite {
  specifier: string;
  typeOnly: boolean;
}

/** Relative specifiers a module imports or re-exports, static or dynamic, read with the TypeScript parser. */
export function importsOf(fileName: string, source: string): ImportSite[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const sites: ImportSite[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(node) ? isTypeOnlyImport(node) : node.isTypeOnly;
      sites.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg !== undefined && ts.isStringLiteral(arg)) sites.push({ specifier: arg.text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      sites.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return sites.filter((s) => s.specifier.startsWith('.'));
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return clause.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

/** The graph node a file (path relative to the tree's root, `/`-separated) belongs to. */
function nodeOf(relativeFile: string): string {
  return relativeFile.split('/')[0] as string;
}

/** Edges between nodes, each with the imports that make it (`from-file → specifier`). */
export type FolderGraph = Map<string, Map<string, string[]>>;

/**
 * Builds the folder graph from `files` (path relative to the root → source). Specifiers are
 * resolved against the importing file; `.js` is read as the `.ts` it is compiled from.
 */
export function buildFolderGraph(files: ReadonlyMap<string, string>): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const [file, source] of files) {
    const from = nodeOf(file);
    for (const site of importsOf(file, source)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), site.specifier));
      if (target.startsWith('..')) continue;
      const to = nodeOf(target.replace(/\.js$/, '.ts'));
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      const why = edges.get(to) ?? [];
      why.push(`${file} → ${site.specifier}`);
      edges.set(to, why);
      graph.set(from, edges);
    }
  }
  return graph;
}

/**
 * Every strongly connected group of two or more nodes, each written as one cycle through it
 * (`a → b → a`), sorted so that the message is stable.
 */
export function findCycles(graph: FolderGraph): string[][] {
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flatMap((e) => [...e.keys()])])].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const strongConnect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
      if (!index.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) strongConnect(v);
  return groups.map((group) => cycleThrough(graph, group)).sort((a, b) => a.join().localeCompare(b.join()));
}

/** A shortest cycle from the group's first node back to itself, staying inside the group. */
function cycleThrough(graph: FolderGraph, group: string[]): string[] {
  const start = group[0] as string;
  const inGroup = new Set(group);
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift() as string;
    for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
      if (!inGroup.has(w)) continue;
      if (w === start) {
        const cycle = [start];
        for (let u: string | undefined = v; u !== undefined && u !== start; u = previous.get(u)) cycle.splice(1, 0, u);
        return [...cycle, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...group, start];
}

/** Every `.ts` file under `root`, by `/`-separated path relative to it, with its source. */
export function readTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) files.set(path.relative(root, full).split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
    }
  };
  walk(root);
  return files;
}

/** A cycle as a readable line, with the imports that make each of its edges. */
export function describeCycle(graph: FolderGraph, cycle: string[]): string {
  const edges = cycle.slice(0, -1).map((from, i) => {
    const to = cycle[i + 1] as string;
    const why = graph.get(from)?.get(to) ?? [];
    return `  ${from} → ${to}: ${why.slice(0, 3).join(', ')}${why.length > 3 ? `, … (${why.length} imports)` : ''}`;
  });
  return [cycle.join(' → '), ...edges].join('\n');
}

/**
 * The layer table of docs/ARCHITECTURE.md (`| 3 | `contracts` |` rows under "Dependency
 * direction"): node → layer number.
 */
export function parseLayers(markdown: string): Map<string, number> {
  const layers = new Map<string, number>();
  for (const line of markdown.split('\n')) {
    const row = /^\|\s*(\d+)\s*\|(.*)\|\s*$/.exec(line);
    if (row === null) continue;
    for (const name of (row[2] as string).matchAll(/`([^`]+)`/g)) layers.set(name[1] as string, Number(row[1]));
  }
  return layers;
}

/** Every edge that does not point to a lower layer, and every node the table does not place. */
export function layerViolations(graph: FolderGraph, layers: ReadonlyMap<string, number>): string[] {
  const problems: string[] = [];
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((e) => [...e.keys()])]);
  for (const node of [...nodes].sort()) if (!layers.has(node)) problems.push(`${node} is in no layer of docs/ARCHITECTURE.md`);
  for (const [from, edges] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    for (const [to, why] of [...edges].sort(([a], [b]) => a.localeCompare(b))) {
      const a = layers.get(from);
      const b = layers.get(to);
      if (a !== undefined && b !== undefined && b >= a) problems.push(`${from} (layer ${a}) → ${to} (layer ${b}): ${why.join(', ')}`);
    }
  }
  return problems;
}
