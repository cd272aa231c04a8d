import type { Random } from '../../random.js';
import { renderFunction } from './code.js';
import { fill, nounOf, thirdPerson, toCamel, toWords, withArticle, type Project } from './vocab.js';

/** Test runner output (pytest or jest) as `run_tests` returns it, with a traceback when a test fails. */

export interface TestRunSpec {
  command: string;
  /** The file the run is about; its failing test (if any) is reported there. */
  testFile: string;
  /** Name of the failing test (may be a fact placeholder); absent when everything passes. */
  failing?: string;
  targetChars: number;
}

const PY_TEST_NAMES = [
  'test_{verb}_{noun}_{qual}',
  'test_{verb}_{qual}',
  'test_{noun}_{qual}_raises',
  'test_{verb}_{noun}_is_idempotent',
  'test_{qual}_{noun}_is_skipped',
];
const TS_TEST_NAMES = [
  '{verbs} the {noun} when {qual}',
  'rejects {aQual} {noun}',
  'handles {qual} for {noun}s',
  'keeps {noun}s unchanged on {qual}',
  '{verbs} {noun}s idempotently',
];

/**
 * Circumstances only planted facts' test names carry, so that no ordinary test name can contain
 * one. Failing-test facts take the first half and still-failing facts the second, so that two
 * facts about one test file never share a circumstance (their questions name it).
 */
const FACT_SCENARIOS = [
  'after_the_refund_window',
  'with_two_currencies',
  'across_midnight_utc',
  'for_legacy_accounts',
  'when_the_cache_is_cold',
  'under_concurrent_writers',
  'after_a_partial_retry',
  'with_a_replayed_request',
  'during_a_schema_upgrade',
  'for_the_first_billing_cycle',
  'with_an_unsorted_batch',
  'after_a_failover',
];

/** The circumstances of failing-test facts and of still-failing facts (disjoint halves). */
export const FAILING_CIRCUMSTANCES = FACT_SCENARIOS.slice(0, FACT_SCENARIOS.length / 2);
export const STILL_FAILING_CIRCUMSTANCES = FACT_SCENARIOS.slice(FACT_SCENARIOS.length / 2);

/**
 * A plausible test name (a function name for pytest, a title for jest). A `distinctive` name ends
 * in a circumstance no ordinary name has (one of FACT_SCENARIOS, or the one given), for facts
 * whose answer must not occur elsewhere.
 */
export function drawTestName(random: Random, project: Project, noun: string, distinctive: boolean | string = false): string {
  const { domain } = project;
  const slots = { verb: random.pick(domain.verbs), noun, qual: random.pick(domain.qualifiers) };
  const circumstance = typeof distinctive === 'string' ? distinctive : distinctive ? random.pick(FACT_SCENARIOS) : undefined;
  const scenario = circumstance === undefined ? '' : `_${circumstance}`;
  if (project.language === 'python') return `${fill(random.pick(PY_TEST_NAMES), slots)}${scenario}`;
  const qual = toWords(slots.qual);
  const title = fill(random.pick(TS_TEST_NAMES), { verbs: thirdPerson(slots.verb), noun: toWords(noun), qual, aQual: withArticle(qual) });
  return `${title}${toWords(scenario)}`;
}

export function renderTestRun(random: Random, project: Project, spec: TestRunSpec): string {
  return project.language === 'python' ? renderPytest(random, project, spec) : renderJest(random, project, spec);
}

function renderPytest(random: Random, project: Project, spec: TestRunSpec): string {
  const header = [
    `$ ${spec.command}`,
    banner(' test session starts ', '='),
    `platform linux -- Python 3.11.${random.int(4, 9)}, pytest-8.${random.int(0, 3)}.${random.int(0, 2)}, pluggy-1.5.0`,
    `rootdir: /workspace/${project.name}`,
    'configfile: pyproject.toml',
    `plugins: cov-5.0.0, hypothesis-6.${random.int(90, 112)}.${random.int(0, 9)}, xdist-3.6.1`,
  ];
  const failure = spec.failing === undefined ? [] : pytestFailure(random, project, spec.testFile, spec.failing);
  const budget = spec.targetChars - [...header, ...failure].join('\n').length;
  const names = fillLines(budget, () => {
    const file = random.pick(project.testFiles);
    return `${file}::${drawTestName(random, project, nounOf(file))} PASSED`;
  });
  if (spec.failing !== undefined) names.splice(random.int(0, names.length), 0, `${spec.testFile}::${spec.failing} FAILED`);
  const total = names.length;
  const passed = names.map((name, i) => `${name}    [${String(Math.round(((i + 1) / total) * 100)).padStart(3)}%]`);
  const seconds = (total * 0.04 + random.next() * 3).toFixed(2);
  const summary = spec.failing === undefined ? `${total} passed in ${seconds}s` : `1 failed, ${total - 1} passed in ${seconds}s`;
  return [...header, `collecting ... collected ${total} items`, '', ...passed, '', ...failure, banner(` ${summary} `, '=')].join('\n');
}

function pytestFailure(random: Random, project: Project, testFile: string, name: string): string[] {
  const noun = nounOf(testFile);
  const fn = renderFunction(random, project, noun).filter((line) => line.trim() !== '');
  const line = random.int(40, 400);
  const [expected, actual] = mismatch(random);
  return [
    banner(' FAILURES ', '='),
    banner(` ${name} `, '_'),
    '',
    ...fn.slice(0, 6).map((l) => `    ${l}`),
    `>       assert result.${random.pick(project.domain.fields)} == ${expected}`,
    `E       AssertionError: assert ${actual} == ${expected}`,
    `E        +  where ${actual} = <${noun} id=${random.int(1, 999)} status='${random.pick(['pending', 'settled', 'failed'])}'>.${random.pick(project.domain.fields)}`,
    '',
    `${testFile}:${line}: AssertionError`,
    banner(' Captured log call ', '-'),
    `DEBUG    ${project.domain.name}.${noun}:${noun}.py:${random.int(20, 300)} ${random.pick(project.domain.verbs)} ${toWords(noun)} id=${random.int(1, 999)}`,
    `WARNING  ${project.domain.name}.${noun}:${noun}.py:${random.int(20, 300)} retrying after ${random.int(1, 9)}00ms`,
    banner(' short test summary info ', '='),
    `FAILED ${testFile}::${name} - AssertionError: assert ${actual} == ${expected}`,
  ];
}

function renderJest(random: Random, project: Project, spec: TestRunSpec): string {
  const failure = spec.failing === undefined ? [] : jestFailure(random, project, spec.testFile, spec.failing);
  const footerSize = 200;
  const budget = spec.targetChars - failure.join('\n').length - footerSize;
  let suites = 0;
  let tests = 0;
  const lines = fillLines(budget, () => {
    if (suites === 0 || random.chance(0.12)) {
      suites++;
      const file = random.pick(project.testFiles);
      return ` PASS  ${file} (${(random.next() * 3 + 0.4).toFixed(3)} s)\n  ${toCamel(nounOf(file))}`;
    }
    tests++;
    return `    ✓ ${drawTestName(random, project, nounOf(random.pick(project.testFiles)))} (${random.int(1, 60)} ms)`;
  });
  const failed = spec.failing === undefined ? 0 : 1;
  const footer = [
    `Test Suites: ${failed ? '1 failed, ' : ''}${suites} passed, ${suites + failed} total`,
    `Tests:       ${failed ? '1 failed, ' : ''}${tests} passed, ${tests + failed} total`,
    'Snapshots:   0 total',
    `Time:        ${(tests * 0.05 + random.next() * 2).toFixed(3)} s`,
    `Ran all test suites matching /${project.domain.name}/i.`,
  ];
  return [`$ ${spec.command}`, ...lines, ...failure, '', ...footer].join('\n');
}

function jestFailure(random: Random, project: Project, testFile: string, name: string): string[] {
  const describe = toCamel(nounOf(testFile));
  const line = random.int(30, 300);
  const column = random.int(20, 50);
  const [expected, actual] = mismatch(random);
  return [
    ` FAIL  ${testFile}`,
    `  ${describe}`,
    `    ✕ ${name} (${random.int(2, 40)} ms)`,
    '',
    `  ● ${describe} › ${name}`,
    '',
    '    expect(received).toBe(expected) // Object.is equality',
    '',
    `    Expected: ${expected}`,
    `    Received: ${actual}`,
    '',
    `      ${line - 1} |     const ${describe} = make${describe.charAt(0).toUpperCase()}${describe.slice(1)}({ id: ${random.int(1, 99)} });`,
    `    > ${line} |     expect(await run(${describe})).toBe(${expected});`,
    `         | ${' '.repeat(column)}^`,
    `      ${line + 1} |   });`,
    '',
    `      at Object.<anonymous> (${testFile}:${line}:${column})`,
  ];
}

/** Two different values a broken assertion compares. */
function mismatch(random: Random): [string, string] {
  const expected = random.int(100, 9999);
  const actual = expected + random.pick([-1, 1, -100, 100, -expected]);
  return [String(expected), String(actual)];
}

/** Lines from `make(i)` until `budget` characters are used (at least one line). */
export function fillLines(budget: number, make: (index: number) => string): string[] {
  const lines: string[] = [];
  let size = 0;
  do {
    const line = make(lines.length);
    lines.push(line);
    size += line.length + 1;
  } while (size < budget);
  return lines;
}

/** A pytest-style banner: `text` centred in an 80-column rule. */
function banner(text: string, rule: string): string {
  const side = Math.max(2, Math.floor((80 - text.length) / 2));
  return `${rule.repeat(side)}${text}${rule.repeat(Math.max(2, 80 - side - text.length))}`;
}
