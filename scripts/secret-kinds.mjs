// Counts what the redactor finds in every file under a folder, by kind, and prints where each
// match of the kinds named after the folder sits (to look at by eye for false positives):
//   npm run build && node scripts/secret-kinds.mjs fixtures/real [kind ...]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findSecrets } from '../dist/redact/index.js';

const [root, ...shown] = process.argv.slice(2);
if (root === undefined) throw new Error('usage: node scripts/secret-kinds.mjs <folder> [kind ...]');
const counts = new Map();
const matches = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else scan(path);
  }
};
const scan = (path) => {
  const text = readFileSync(path, 'utf8');
  for (const { kind, start, end } of findSecrets(text)) {
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    if (shown.includes(kind)) matches.push(`${kind}\t${path}\t${JSON.stringify(text.slice(Math.max(0, start - 30), end + 10))}`);
  }
};
walk(root);
for (const [kind, count] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${kind}\t${count}`);
for (const match of matches) console.log(match);
