import type { Random } from '../../random.js';
import { fill, identifier, nounOf, pickDistinct, thirdPerson, toCamel, toPascal, toWords, type Project } from './vocab.js';

/**
 * Source code of the imaginary repository, as `read_file`, `edit_file` and `grep` show it. The
 * code is built from statement templates over the domain's words, so every listing differs.
 */

/** Template lines of function bodies; `{x}` slots are filled per function. */
const PY_STATEMENTS: readonly (readonly string[])[] = [
  ['if {arg} is None:', '    raise ValueError("{arg} is required")'],
  ['{var} = repository.get_{noun}({arg}.{field})'],
  ['logger.info("{verb} {words}", extra={"{field}": {arg}.{field}})'],
  ['for item in {arg}.items:', '    {acc} += item.{field2}'],
  ['if {var}.status == "{status}":', '    return {default}'],
  ['try:', '    {var} = client.{verb}({arg})', 'except TimeoutError as exc:', '    raise {pascal}Error("{verb} timed out for {words}") from exc'],
  ['{acc} = {arg}.{field2} - {var}.{field2}'],
  [
    'now = datetime.now(timezone.utc)',
    'if {arg}.{field} and {arg}.{field} > now:',
    '    logger.debug("skipping future {words} %s", {arg}.{field})',
    '    return {default}',
  ],
  ['# The upstream API sends {field} as a string; normalise before comparing.', '{var} = str({arg}.{field}).strip()'],
  ['if len({plural}) > MAX_BATCH:', '    {plural} = {plural}[:MAX_BATCH]'],
  ['with session.begin():', '    session.add({var})', '    session.flush()'],
  ['{var} = [x for x in {plural} if x.{field} is not None]'],
  ['metrics.increment("{noun}.{verb}", tags={"status": {var}.status})'],
];

const TS_STATEMENTS: readonly (readonly string[])[] = [
  ['if (!{arg}) {', "  throw new Error('{arg} is required');", '}'],
  ['const {var} = await repo.find{pascal}({arg}.{field});'],
  ["logger.info({ {field}: {arg}.{field} }, '{verb} {words}');"],
  ['for (const item of {arg}.items) {', '  {acc} += item.{field2};', '}'],
  ["if ({var}.status === '{status}') {", '  return {default};', '}'],
  ['try {', '  {var} = await client.{verb}({arg});', '} catch (error) {', "  throw new {pascal}Error('{verb} timed out for {words}', { cause: error });", '}'],
  ['{acc} = {arg}.{field2} - {var}.{field2};'],
  [
    'const now = new Date();',
    'if ({arg}.{field} && {arg}.{field} > now) {',
    "  logger.debug({ id: {arg}.id }, 'skipping future {words}');",
    '  return {default};',
    '}',
  ],
  ['// The upstream API sends {field} as a string; normalise before comparing.', 'const {var}Key = String({arg}.{field}).trim();'],
  ['if ({plural}.length > MAX_BATCH) {', '  {plural} = {plural}.slice(0, MAX_BATCH);', '}'],
  ['await db.transaction().execute(async (trx) => {', "  await trx.insertInto('{noun}s').values({var}).execute();", '});'],
  ['const {var}List = {plural}.filter((x) => x.{field} != null);'],
  ["metrics.increment('{noun}.{verb}', { status: {var}.status });"],
];

const STATUSES = ['pending', 'settled', 'failed', 'cancelled', 'expired', 'queued'];

/** Lines of a whole module: imports, one record type, then functions until `targetChars`. */
export function renderModuleLines(random: Random, project: Project, path: string, targetChars: number): string[] {
  const noun = nounOf(path);
  const lines = project.language === 'python' ? pythonPreamble(project, noun) : typescriptPreamble(project, noun);
  let size = lines.join('\n').length;
  while (size < targetChars) {
    const fn = renderFunction(random, project, noun);
    lines.push(...fn);
    size += fn.join('\n').length + fn.length;
  }
  return lines;
}

/** A listing as `read_file` returns it: `cat -n` style line numbers from `startLine`. */
export function numberLines(lines: readonly string[], startLine = 1): string {
  return lines.map((line, i) => `${String(startLine + i).padStart(6)}\t${line}`).join('\n');
}

/** One function of the module about `noun`, as lines (with a trailing blank line). */
export function renderFunction(random: Random, project: Project, noun: string): string[] {
  const { language, domain } = project;
  const verb = random.pick(domain.verbs);
  const [field = 'status', field2 = 'amount'] = pickDistinct(random, domain.fields, 2);
  const slots = {
    arg: language === 'python' ? noun : toCamel(noun),
    var: random.pick(['result', 'existing', 'record', 'current', 'snapshot', 'candidate']),
    acc: random.pick(['total', 'remaining', 'balance', 'count', 'delta']),
    plural: `${language === 'python' ? noun : toCamel(noun)}s`,
    noun,
    verb,
    words: toWords(noun),
    pascal: toPascal(noun),
    field: language === 'python' ? field : toCamel(field),
    field2: language === 'python' ? field2 : toCamel(field2),
    status: random.pick(STATUSES),
    default: language === 'python' ? random.pick(['None', '0', '[]', 'False']) : random.pick(['null', '0', '[]', 'false']),
  };
  const name = identifier(language, verb, noun, ...(random.chance(0.5) ? [random.pick(domain.qualifiers)] : []));
  const body = pickDistinct(random, language === 'python' ? PY_STATEMENTS : TS_STATEMENTS, random.int(3, 6)).flatMap((lines) =>
    lines.map((line) => fill(line, slots)),
  );
  if (language === 'python') {
    const doc = `    """${capitalise(verb)} the ${toWords(noun)} and return the ${random.pick(['updated record', 'new total', 'result', 'number of rows changed'])}."""`;
    return [`def ${name}(${slots.arg}: ${slots.pascal}, *, dry_run: bool = False):`, doc, ...body.map((l) => `    ${l}`), `    return ${slots.var}`, '', ''];
  }
  return [
    `/** ${capitalise(thirdPerson(verb))} the ${toWords(noun)}; resolves to the ${random.pick(['updated record', 'new total', 'result'])}. */`,
    `export async function ${name}(${slots.arg}: ${slots.pascal}, opts: { dryRun?: boolean } = {}) {`,
    ...body.map((l) => `  ${l}`),
    `  return ${slots.var};`,
    '}',
    '',
  ];
}

/** One line of code that uses `ident`, as a grep hit shows it. */
export function renderUsageLine(random: Random, project: Project, ident: string, noun: string): string {
  const arg = project.language === 'python' ? noun : toCamel(noun);
  const templates =
    project.language === 'python'
      ? [
          `    result = ${ident}(${arg}, dry_run=dry_run)`,
          `from ${project.domain.name}.${noun} import ${ident}`,
          `def ${ident}(${arg}: ${toPascal(noun)}, *, dry_run: bool = False):`,
          `    assert ${ident}(${arg}) == expected`,
          `        return ${ident}(${arg}.parent)`,
          `    monkeypatch.setattr(module, "${ident}", fake_${ident})`,
        ]
      : [
          `  const result = await ${ident}(${arg}, { dryRun });`,
          `import { ${ident} } from '../${toCamel(noun)}';`,
          `export async function ${ident}(${arg}: ${toPascal(noun)}, opts: { dryRun?: boolean } = {}) {`,
          `    expect(await ${ident}(${arg})).toEqual(expected);`,
          `    return ${ident}(${arg}.parent);`,
          `  jest.spyOn(module, '${ident}').mockResolvedValue(fake);`,
        ];
  return random.pick(templates);
}

function pythonPreamble(project: Project, noun: string): string[] {
  const pkg = project.domain.name;
  return [
    `"""${capitalise(toWords(noun))} operations of the ${pkg} service."""`,
    'from __future__ import annotations',
    '',
    'import logging',
    'from dataclasses import dataclass',
    'from datetime import datetime, timezone',
    '',
    `from ${pkg}.db import session`,
    `from ${pkg}.metrics import metrics`,
    `from ${pkg}.models import ${toPascal(noun)}`,
    `from ${pkg}.repository import repository`,
    '',
    'logger = logging.getLogger(__name__)',
    'MAX_BATCH = 500',
    '',
    '',
    `class ${toPascal(noun)}Error(RuntimeError):`,
    `    """Raised when the ${toWords(noun)} cannot be processed."""`,
    '',
    '',
  ];
}

function typescriptPreamble(project: Project, noun: string): string[] {
  return [
    `import type { ${toPascal(noun)} } from './types';`,
    `import { db } from '../db';`,
    `import { logger } from '../logger';`,
    `import { metrics } from '../metrics';`,
    `import { client, repo } from './deps';`,
    '',
    'const MAX_BATCH = 500;',
    '',
    `export class ${toPascal(noun)}Error extends Error {}`,
    '',
  ];
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
