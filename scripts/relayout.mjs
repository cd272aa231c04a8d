#!/usr/bin/env node
// Moves files to the layout of docs/ARCHITECTURE.md and rewrites every relative import that
// points at a moved file, so that the same moves can be re-applied to a tree that has changed
// since (issue 17). Idempotent: a move already made is skipped, an import already right is kept.
//
//   node scripts/relayout.mjs            apply the moves and rewrite imports
//   node scripts/relayout.mjs --check    print what would change; exit 1 if anything would
//
// It fails (exit 2, nothing written) when a file of the table is missing at both its old and its
// new path, or present at both, or when an import of a moved file cannot be resolved afterwards.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * The move table: old path → new path, relative to the repository. Test files mirror their
 * source; a test file that does not exist on a newer tree must be removed from the table, not
 * skipped silently, so that a missing file is always a question for a person.
 */
const synthetic = ['code', 'facts-text', 'facts-tools', 'facts', 'hard', 'placement', 'plan', 'prose', 'render', 'shell', 'tests', 'vocab'];
const strategyHelpers = [
  'describe',
  'eviction-book',
  'hints',
  'history',
  'isolation',
  'map-reduce',
  'message-units',
  'scratchpad',
  'summary-call',
  'summary-check',
  'text-cuts',
  'tool-clearing',
  'tri-modal-thresholds',
];
export const moves = [
  // transcript/: the synthetic generator in a folder of its own, beside the importers.
  ['src/transcript/synthetic.ts', 'src/transcript/synthetic/generate.ts'],
  ['test/transcript/synthetic.test.ts', 'test/transcript/synthetic/generate.test.ts'],
  ...synthetic.map((name) => [`src/transcript/synthetic-${name}.ts`, `src/transcript/synthetic/${name}.ts`]),
  ['test/transcript/synthetic-placement.test.ts', 'test/transcript/synthetic/placement.test.ts'],
  ['test/probes/synthetic-hard.test.ts', 'test/transcript/synthetic/hard.test.ts'],
  // strategies/: a registered strategy's name is its file's name; everything else is a helper.
  ...strategyHelpers.map((name) => [`src/strategies/${name}.ts`, `src/strategies/helpers/${name}.ts`]),
  ['test/strategies/map-reduce.test.ts', 'test/strategies/helpers/map-reduce.test.ts'],
  ['test/strategies/message-units.test.ts', 'test/strategies/helpers/message-units.test.ts'],
  ['test/strategies/text-cuts.test.ts', 'test/strategies/helpers/text-cuts.test.ts'],
  ['test/engine/isolation.test.ts', 'test/strategies/helpers/isolation.test.ts'],
  // Folder cycles. The provider contract (names, requests, results, failures) sits below every
  // folder that uses it, including tokens/ and sim/, which the provider implementations use.
  ['src/providers/types.ts', 'src/contracts/provider.ts'],
  // The seeded generator is used by the transcript generator, the simulator and probes alike.
  ['src/sim/random.ts', 'src/random.ts'],
  // transcript/ is the bottom layer: it must not read scenarios or probes.
  ['src/transcript/load.ts', 'src/scenario/load-transcript.ts'],
  ['src/probes/schema.ts', 'src/transcript/probe-schema.ts'],
  // The simulated model's specific kinds are the simulator's; calibration fits them.
  ['src/calibration/specific-kinds.ts', 'src/providers/simulated/specific-kinds.ts'],
  ['test/calibration/specific-kinds.test.ts', 'test/providers/simulated/specific-kinds.test.ts'],
  // The run event stream is what metrics reduce; the engine writes it.
  ['src/engine/types.ts', 'src/metrics/run-events.ts'],
  // Hidden tokens are a count of tokens; the engine and fidelity both use them.
  ['src/engine/hidden-tokens.ts', 'src/tokens/hidden-tokens.ts'],
  ['test/engine/hidden-tokens.test.ts', 'test/tokens/hidden-tokens.test.ts'],
  // The engine estimates the hidden prefix for every replayed log; fidelity reports on it.
  ['src/fidelity/hidden-prefix.ts', 'src/engine/hidden-prefix.ts'],
  // Medians and robust fits are plain numerics, used by that estimate and by fidelity.
  ['src/fidelity/stats.ts', 'src/stats.ts'],
  ['test/fidelity/stats.test.ts', 'test/stats.test.ts'],
  // The gateway (window check, quota gate, provider) and its retry waits are the simulator's
  // front door; the engine and the probes both call through it.
  ['src/engine/gateway.ts', 'src/sim/gateway.ts'],
  ['src/engine/retry-wait.ts', 'src/sim/retry-wait.ts'],
  ['test/engine/retry-wait.test.ts', 'test/sim/retry-wait.test.ts'],
  // The probe observer plugs probes into the engine's observer hook: the engine's side of it.
  ['src/probes/observer.ts', 'src/engine/probe-observer.ts'],
  // Thinking limits (issue 12) are part of the provider contract: requests carry them, and
  // strategies and the simulator read them.
  ['src/providers/thinking.ts', 'src/contracts/thinking.ts'],
  // Unlogged content (issue 10) feeds the engine's hidden-prefix estimate; fidelity reads it too.
  ['src/fidelity/unlogged.ts', 'src/engine/unlogged.ts'],
  ['test/fidelity/unlogged.test.ts', 'test/engine/unlogged.test.ts'],
  // Re-costing a result (issue 14) reduces run results; only the check uses it. pricing/ then
  // imports nothing above it and sits below scenario/.
  ['src/pricing/reprice.ts', 'src/check/reprice.ts'],
  ['test/pricing/reprice.test.ts', 'test/check/reprice.test.ts'],
  // The conformance checker (issue 18) runs a strategy with an archive, a clock and a quota
  // gate, as the engine does; `ctxbench verify` and the registry test call it.
  ['src/strategies/conformance.ts', 'src/engine/conformance.ts'],
];

/** Folders whose `.ts`, `.mts`, `.mjs` and `.js` files may hold imports of moved files. */
const scannedFolders = ['src', 'test', 'scripts', 'bench'];
/** Files whose path mentions (`engine/types.ts`) are rewritten too, so that docs keep up. */
const mentionFiles = ['README.md', 'docs'];

const check = process.argv.includes('--check');
const exists = (rel) => fs.existsSync(path.join(root, rel));

function fail(message) {
  console.error(`relayout: ${message}`);
  process.exit(2);
}

// 1. Which moves are pending; a table entry must exist at exactly one end.
const pending = new Map();
const moved = new Map(moves);
for (const [from, to] of moves) {
  if (exists(from) && exists(to)) fail(`both ${from} and ${to} exist; merge them by hand, then re-run`);
  if (!exists(from) && !exists(to)) fail(`${from} is in the move table but missing (and so is ${to}); update the table in scripts/relayout.mjs`);
  if (exists(from)) pending.set(from, to);
}

function listFiles(dir) {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [dir];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .filter((e) => e.name !== 'node_modules' && e.name !== '__snapshots__')
    .flatMap((e) => (e.isDirectory() ? listFiles(path.posix.join(dir, e.name)) : [path.posix.join(dir, e.name)]));
}

/** The file a specifier names, as a repository path, trying the `.ts` a `.js` is compiled from. */
function resolveTarget(fromFile, specifier) {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  const candidates = [joined, joined.replace(/\.js$/, '.ts'), joined.replace(/\.mjs$/, '.mts'), `${joined}.ts`, `${joined}/index.ts`];
  return { joined, found: candidates.find((c) => exists(c) && fs.statSync(path.join(root, c)).isFile()) };
}

/** The string literals of a file that name modules: imports, re-exports, import(), vi.mock(). */
function specifierNodes(file, source) {
  const kind = file.endsWith('.ts') || file.endsWith('.mts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true, kind);
  const found = [];
  const isModuleCall = (node) =>
    node.expression.kind === ts.SyntaxKind.ImportKeyword ||
    (ts.isIdentifier(node.expression) && node.expression.text === 'require') ||
    (ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'vi' &&
      ['mock', 'doMock', 'unmock', 'importActual', 'importMock'].includes(node.expression.name.text));
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier);
    } else if (ts.isCallExpression(node) && isModuleCall(node) && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      found.push(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found.filter((n) => n.text.startsWith('.'));
}

function relativeSpecifier(fromFile, targetFile, original) {
  let rel = path.posix.relative(path.posix.dirname(fromFile), targetFile);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  // Keep the specifier's own style: `.js` for a `.ts` source, as written.
  if (original.endsWith('.js') && rel.endsWith('.ts')) rel = rel.replace(/\.ts$/, '.js');
  if (original.endsWith('.mjs') && rel.endsWith('.mts')) rel = rel.replace(/\.mts$/, '.mjs');
  return rel;
}

// 2. Rewrite specifiers against the layout after the moves.
// The table above names old paths on purpose: this script is not rewritten.
const sourceFiles = scannedFolders.flatMap(listFiles).filter((f) => /\.(ts|mts|mjs|js)$/.test(f) && f !== 'scripts/relayout.mjs');
const edits = new Map();
const unresolved = [];
for (const file of sourceFiles) {
  const source = fs.readFileSync(path.join(root, file), 'utf8');
  const newFile = pending.get(file) ?? file;
  const changes = [];
  for (const node of specifierNodes(file, source)) {
    const { joined, found } = resolveTarget(file, node.text);
    let target = found;
    if (target === undefined) {
      // Already pointing at an old path whose move was made earlier (a file added since).
      const old = [joined, joined.replace(/\.js$/, '.ts')].find((c) => moved.has(c));
      if (old === undefined) {
        unresolved.push(`${file}: ${node.text}`);
        continue;
      }
      target = old;
    }
    const newTarget = moved.get(target) ?? target;
    const specifier = relativeSpecifier(newFile, newTarget, node.text);
    if (specifier !== node.text) changes.push({ start: node.getStart() + 1, end: node.getEnd() - 1, text: specifier });
  }
  let text = source;
  for (const c of changes.sort((a, b) => b.start - a.start)) text = text.slice(0, c.start) + c.text + text.slice(c.end);
  text = rewriteMentions(text);
  if (text !== source) edits.set(file, text);
}
for (const file of mentionFiles.flatMap(listFiles).filter((f) => f.endsWith('.md'))) {
  const source = fs.readFileSync(path.join(root, file), 'utf8');
  const text = rewriteMentions(source);
  if (text !== source) edits.set(file, text);
}

/**
 * Path mentions in comments and docs (`src/engine/types.ts`, `engine/types.ts`) follow their
 * file. Only whole `folder/file.ts` paths from the table are matched, never a bare file name.
 */
function rewriteMentions(text) {
  let out = text;
  for (const [from, to] of moves) {
    if (!from.startsWith('src/')) continue;
    const short = from.slice('src/'.length);
    const pattern = new RegExp(`(?<![\\w./-])(src/)?${short.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'g');
    out = out.replace(pattern, (_, prefix) => (prefix ? to : to.slice('src/'.length)));
  }
  return out;
}

if (unresolved.length > 0) {
  // Imports that resolved before the moves and not after would be broken by them.
  const broken = unresolved.filter((u) => !u.includes('${'));
  if (broken.length > 0) fail(`cannot resolve these imports:\n  ${broken.join('\n  ')}`);
}

const summary = `${pending.size} moves pending, ${edits.size} files to rewrite`;
if (check) {
  for (const [from, to] of pending) console.log(`move ${from} -> ${to}`);
  for (const file of edits.keys()) console.log(`rewrite ${file}`);
  console.log(summary);
  process.exit(pending.size + edits.size > 0 ? 1 : 0);
}

// 3. Write: contents first (at the old paths), then the moves.
for (const [file, text] of edits) fs.writeFileSync(path.join(root, file), text);
for (const [from, to] of pending) {
  fs.mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
  fs.renameSync(path.join(root, from), path.join(root, to));
}
console.log(`relayout: ${summary}; done`);
