import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { InputError } from '../errors.js';
import { parseInput, readDocument, type FieldPath, type LocatedDocument } from '../validate.js';
import type { Scenario } from '../scenario/types.js';
import type { Probe, Transcript } from '../transcript/types.js';
import { generateProbes } from './generate.js';
import { probeSchema } from '../transcript/probe-schema.js';

/**
 * Loads a side file of probes (DESIGN.md §6): JSON or YAML (an array, or `{probes: [...]}`), or
 * JSONL (one probe, or one `{"type":"probe","probe":{...}}` event, per line). Every probe passes
 * `probeSchema`; a problem raises an InputError naming the file, the line and the field
 * (`probes.3.expected`).
 */
export async function loadProbeFile(file: string): Promise<Probe[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new InputError({ file }, `cannot read probe file: ${(e as Error).message}`);
  }
  const probes = /\.(?:jsonl|ndjson)$/i.test(file) ? parseJsonLines(file, text) : parseDocumentFile(file, text);
  checkUniqueIds(file, probes);
  return probes.map((p) => p.probe);
}

interface LocatedProbe {
  probe: Probe;
  line?: number;
  field: string;
}

function parseJsonLines(file: string, text: string): LocatedProbe[] {
  const probes: LocatedProbe[] = [];
  text.split(/\r?\n/).forEach((source, i) => {
    const line = i + 1;
    if (source.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (e) {
      throw new InputError({ file, line }, `invalid JSON: ${(e as Error).message}`);
    }
    const isEvent = typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'probe';
    const prefix: FieldPath = isEvent ? ['probe'] : [];
    const probe = parseInput(probeSchema, isEvent ? (value as { probe?: unknown }).probe : value, { file, line, at: prefix });
    probes.push({ probe, line, field: [...prefix, 'id'].join('.') });
  });
  return probes;
}

/** The probe items of a document: a bare array, or the array under `probes` (and no other key). */
function readItems(file: string, doc: LocatedDocument): { items: unknown[]; prefix: FieldPath } {
  const root = doc.data;
  if (Array.isArray(root)) return { items: root, prefix: [] };
  const keys = typeof root === 'object' && root !== null ? Object.keys(root) : [];
  const extra = keys.find((k) => k !== 'probes');
  if (extra !== undefined) throw new InputError({ file, line: doc.lineOf([extra]), field: extra }, 'unknown key');
  const items = (root as { probes?: unknown } | null)?.probes;
  if (!Array.isArray(items)) {
    throw new InputError({ file, line: doc.lineOf(['probes']), field: 'probes' }, 'expected an array of probes, or {probes: [...]}');
  }
  return { items, prefix: ['probes'] };
}

function parseDocumentFile(file: string, text: string): LocatedProbe[] {
  const doc = readDocument(text, file);
  const { items, prefix } = readItems(file, doc);
  // A bare array and `{probes: [...]}` report the same field names: `probes.3.expected`; the line
  // is looked up at the item's own place in the document.
  return items.map((item, index) => {
    const lineOf = (path: FieldPath) => doc.lineOf([...prefix, ...path.slice(1)]);
    const probe = parseInput(probeSchema, item, { file, at: ['probes', index], lineOf });
    return { probe, line: lineOf(['probes', index]), field: `probes.${index}.id` };
  });
}

function checkUniqueIds(file: string, probes: readonly LocatedProbe[]): void {
  const seen = new Set<string>();
  for (const { probe, line, field } of probes) {
    if (seen.has(probe.id)) {
      throw new InputError({ file, ...(line === undefined ? {} : { line }), field }, `duplicate probe id "${probe.id}"`);
    }
    seen.add(probe.id);
  }
}

/**
 * Every probe of a scenario: the transcript's inline probe events, then its side file's, then
 * (with `probes: generate`) probes generated from the transcript. Ids must be unique across the
 * sources: a clash raises an InputError naming the scenario file and the probe.
 */
export async function loadScenarioProbes(scenario: Scenario, transcript: Transcript): Promise<Probe[]> {
  return withGeneratedProbes(scenario, transcript, await loadGivenProbes(scenario, transcript));
}

/** The probes a scenario gives (inline and side file), checked: everything but the generated ones. */
export async function loadGivenProbes(scenario: Scenario, transcript: Transcript): Promise<Probe[]> {
  const inline = transcript.events.flatMap((e) => (e.type === 'probe' ? [e.probe] : []));
  const fromFile = scenario.probesFile === undefined ? [] : await loadProbeFile(scenario.probesFile);
  return checkDistinct(scenario, [...inline, ...fromFile]);
}

/** `given` followed by the probes `probes: generate` makes from the transcript (none without it). */
export function withGeneratedProbes(scenario: Scenario, transcript: Transcript, given: readonly Probe[]): Probe[] {
  if (scenario.probesGenerate === undefined) return [...given];
  return joinGenerated(scenario, given, generateProbes(transcript, scenario.probesGenerate));
}

/** `given` followed by `generated` (made from the transcript by `probes: generate`, elsewhere: a worker thread), checked as `withGeneratedProbes` checks them. */
export function joinGenerated(scenario: Scenario, given: readonly Probe[], generated: readonly Probe[]): Probe[] {
  return checkDistinct(scenario, [...given, ...generated]);
}

/**
 * Whether a given probe's id has the form of a generated one (`gen-<kind>-<n>`), so that it may
 * clash with one: such a scenario's probes are generated before anything runs (run/prepare.ts).
 */
export const mayClashWithGenerated = (given: readonly Probe[]): boolean => given.some((probe) => probe.id.startsWith('gen-'));

function checkDistinct(scenario: Scenario, probes: Probe[]): Probe[] {
  const seen = new Set<string>();
  for (const probe of probes) {
    if (seen.has(probe.id)) {
      throw new InputError({ file: scenario.file, field: 'probes' }, `probe id "${probe.id}" is given twice (transcript, probe file or generated probes)`);
    }
    seen.add(probe.id);
  }
  return probes;
}

/**
 * Where the judge rubric lives: `docs/` at the package root, two folders up from this module
 * whether it runs as source (src/probes/) or built (dist/probes/); `docs` ships in the package.
 */
export const JUDGE_RUBRIC_URL = new URL('../../docs/judge-rubric.md', import.meta.url);

let rubricText: Promise<string> | undefined;

/**
 * The judge rubric as written (probes/judge.ts selects the part sent to the judge). Read once per
 * process, however many scenarios ask for it; a missing file raises an InputError naming it.
 */
export function loadJudgeRubric(): Promise<string> {
  rubricText ??= readFile(JUDGE_RUBRIC_URL, 'utf8').catch((e: unknown) => {
    throw new InputError({ file: fileURLToPath(JUDGE_RUBRIC_URL) }, `cannot read the judge rubric: ${(e as Error).message}`);
  });
  return rubricText;
}
