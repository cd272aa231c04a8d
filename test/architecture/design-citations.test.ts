import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTree } from './folder-graph.js';

const repo = path.resolve(import.meta.dirname, '../..');
const design = readFileSync(path.join(repo, 'docs/DESIGN.md'), 'utf8');
const thisFile = 'architecture/design-citations.test.ts';

/** Section numbers with a heading in docs/DESIGN.md (`## 6. Probes and recall` → 6). */
function designSections(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{2,3} (\d+(?:\.\d+)*)\. /gm)].map((m) => m[1] as string));
}

/** Every mention of DESIGN.md in `files`, with the path before it and the § numbers after it. */
function citations(files: ReadonlyMap<string, string>, folder: string): { where: string; path: string; sections: string[] }[] {
  const found: { where: string; path: string; sections: string[] }[] = [];
  for (const [file, source] of files) {
    if (`${folder}/${file}` === `test/${thisFile}`) continue;
    source.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(/([\w./-]*)DESIGN\.md((?:,? ?(?:and )?§\d+(?:\.\d+)*)*)/g)) {
        found.push({
          where: `${folder}/${file}:${i + 1}`,
          path: m[1] as string,
          sections: [...(m[2] as string).matchAll(/§(\d+(?:\.\d+)*)/g)].map((s) => s[1] as string),
        });
      }
    });
  }
  return found;
}

describe('DESIGN.md citations', () => {
  const all = [...citations(readTree(path.join(repo, 'src')), 'src'), ...citations(readTree(path.join(repo, 'test')), 'test')];

  it('are found (about thirty in src/ and test/)', () => {
    expect(all.length).toBeGreaterThanOrEqual(30);
  });

  it('cite a section that is a heading of docs/DESIGN.md', () => {
    const sections = designSections(design);
    expect(sections).toEqual(new Set(['1', '2', '3', '4', '5', '6', '7', '8', '9']));
    const missing = all.flatMap((c) => c.sections.filter((s) => !sections.has(s)).map((s) => `${c.where}: §${s}`));
    expect(missing).toEqual([]);
  });

  it('point at the repository copy, never outside it', () => {
    const outside = all.filter((c) => c.path !== '' && c.path !== 'docs/').map((c) => `${c.where}: ${c.path}DESIGN.md`);
    expect(outside).toEqual([]);
  });
});

describe('docs/DESIGN.md', () => {
  it('holds the contracts a contributor needs', () => {
    const headings = [...design.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1] as string);
    for (const topic of [
      /transcript/i,
      /replay semantics/i,
      /providers and the simulated model/i,
      /probes/i,
      /quota/i,
      /metrics/i,
      /summary contract/i,
      /exit codes/i,
    ]) {
      expect(
        headings.some((h) => topic.test(h)),
        String(topic),
      ).toBe(true);
    }
  });
});
