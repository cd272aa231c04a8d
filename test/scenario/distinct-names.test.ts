import { describe, expect, it } from 'vitest';
import { distinctScenarios } from '../../src/scenario/distinct-names.js';
import type { LoadedScenario } from '../../src/scenario/load.js';
import { InputError } from '../../src/errors.js';

const adHoc = (file: string, name: string): LoadedScenario => ({ file, data: { name, transcript: 'x' } as LoadedScenario['data'], adHoc: true });
const yaml = (file: string, name: string): LoadedScenario => ({ file, data: { name, transcript: 'x' } as LoadedScenario['data'] });
const namesOf = (loaded: LoadedScenario[]): string[] => distinctScenarios(loaded).map((scenario) => scenario.data.name);

describe('distinctScenarios', () => {
  it('leaves names that no other scenario shares as they are', () => {
    expect(namesOf([adHoc('/a/x.ctx.jsonl', 'x'), yaml('/a/s.yaml', 's')])).toEqual(['x', 's']);
  });
  it('prefixes same-named transcripts with the fewest folders that tell them apart', () => {
    expect(namesOf([adHoc('/p/d1/x.jsonl', 'x'), adHoc('/p/d2/x.jsonl', 'x')])).toEqual(['d1-x', 'd2-x']);
    expect(namesOf([adHoc('/a/p/x.jsonl', 'x'), adHoc('/b/p/x.jsonl', 'x')])).toEqual(['a-p-x', 'b-p-x']);
    // A Claude Code project folder starts with a dash.
    expect(namesOf([adHoc('/h/-home-me-app/s.jsonl', 's'), adHoc('/h/-home-me-web/s.jsonl', 's')])).toEqual(['home-me-app-s', 'home-me-web-s']);
  });
  it('numbers transcripts of one folder whose names differ only in characters a name cannot hold', () => {
    expect(namesOf([adHoc('/d/a b.ctx.jsonl', 'a-b'), adHoc('/d/a-b.ctx.jsonl', 'a-b')])).toEqual(['a-b-1', 'a-b-2']);
  });
  it('never gives a new name another scenario holds', () => {
    expect(namesOf([adHoc('/p/d1/x.jsonl', 'x'), adHoc('/p/d2/x.jsonl', 'x'), adHoc('/q/d1-x.jsonl', 'd1-x')])).toEqual(['p-d1-x', 'p-d2-x', 'd1-x']);
    expect(namesOf([yaml('/s/x.yaml', 'x'), adHoc('/d/x.jsonl', 'x')])).toEqual(['x', 'd-x']);
  });
  it('runs a file given twice once', () => {
    expect(namesOf([adHoc('/d/x.jsonl', 'x'), adHoc('/d/x.jsonl', 'x')])).toEqual(['x']);
  });
  it('refuses two scenario files of one name, naming both', () => {
    expect(() => distinctScenarios([yaml('/s/a.yaml', 'same'), yaml('/s/b.yaml', 'same')])).toThrow(InputError);
    expect(() => distinctScenarios([yaml('/s/a.yaml', 'same'), yaml('/s/b.yaml', 'same')])).toThrow(/name "same" is taken by .*a\.yaml too/);
  });
});
