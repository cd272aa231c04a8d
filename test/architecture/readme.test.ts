import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');

describe('README.md', () => {
  it('stays a page: at most 300 lines (topics go to docs/)', () => {
    expect(readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0)).toBeLessThanOrEqual(300);
  });

  it('links every docs/ page it names to a file that exists', () => {
    for (const [, page] of readme.matchAll(/\]\((docs\/[\w./-]+\.md)(?:#[\w-]+)?\)/g)) {
      expect(() => readFileSync(path.resolve(import.meta.dirname, '../..', page as string)), page).not.toThrow();
    }
  });
});
