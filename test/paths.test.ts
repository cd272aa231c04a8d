import { describe, expect, it } from 'vitest';
import { artifactPath, displayPath, givenPath } from '../src/paths.js';

describe('displayPath', () => {
  it('shows a path under the working directory relative to it, and any other path absolute as it is', () => {
    expect(displayPath('/work/repo/scenarios/a.yaml', '/work/repo')).toBe('scenarios/a.yaml');
    expect(displayPath('/work/repo', '/work/repo')).toBe('.');
    expect(displayPath('/tmp/out', '/work/repo')).toBe('/tmp/out');
    expect(displayPath('/work/other/a.yaml', '/work/repo')).toBe('/work/other/a.yaml');
    expect(displayPath('/work/repo..x/a.yaml', '/work/repo')).toBe('/work/repo..x/a.yaml');
  });

  it('keeps a path relative to the working directory as it is', () => {
    expect(displayPath('scenarios/a.yaml')).toBe('scenarios/a.yaml');
  });
});

describe('givenPath', () => {
  it('echoes a typed path as it is, without a trailing slash', () => {
    expect(givenPath('/work/repo/out/')).toBe('/work/repo/out');
    expect(givenPath('../out')).toBe('../out');
    expect(givenPath('/')).toBe('/');
  });
});

describe('artifactPath', () => {
  it('is never absolute: relative to the working directory under it, else to the scenario folder', () => {
    expect(artifactPath('/work/repo/scenarios/a.yaml', '/work/repo/scenarios', '/work/repo')).toBe('scenarios/a.yaml');
    expect(artifactPath('/home/ann/logs/a.yaml', '/home/ann/logs', '/work/repo')).toBe('a.yaml');
    expect(artifactPath('/home/ann/logs/t/x.ctx.jsonl', '/home/ann/logs', '/work/repo')).toBe('t/x.ctx.jsonl');
    expect(artifactPath('/data/x.ctx.jsonl', '/home/ann/logs', '/work/repo')).toBe('../../../data/x.ctx.jsonl');
    expect(artifactPath('/home/ann/logs', '/home/ann/logs', '/work/repo')).toBe('logs');
  });
});
