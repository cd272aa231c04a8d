import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
// Built from pieces, so that this file holds no marker of its own (a line of seven `=` alone may be
// a Markdown heading's underline: the two ends of a conflict are enough).
const MARKER = new RegExp(`^(?:${'<'.repeat(7)}|${'>'.repeat(7)}) `, 'm');
const TEXT = /\.(?:ts|mjs|js|md|ya?ml|json)$/;

function textFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return textFiles(file);
    return TEXT.test(name) ? [file] : [];
  });
}

describe('the tree', () => {
  it('holds no merge-conflict markers (a merge once committed some to docs/ARCHITECTURE.md)', () => {
    const files = [...['src', 'test', 'docs', 'scenarios', 'examples'].flatMap((dir) => textFiles(path.join(ROOT, dir))), path.join(ROOT, 'README.md')];
    const marked = files.filter((file) => MARKER.test(readFileSync(file, 'utf8'))).map((file) => path.relative(ROOT, file));
    expect(marked).toEqual([]);
  });
});
