import type { Random } from '../../random.js';
import type { FactTemplate } from './facts.js';
import { drawTestName, STILL_FAILING_CIRCUMSTANCES } from './tests.js';
import { ALNUM, nounOf, randomString, toWords, type Project } from './vocab.js';

/** Planted facts that live in what the agent or the user says (see synthetic-facts.ts). */

/** Design decisions per language: the topic, the options the agent chooses among, and reasons. */
const DECISIONS: Record<Project['language'], readonly { topic: string; choices: readonly string[] }[]> = {
  python: [
    { topic: 'JSON serialisation of webhook payloads', choices: ['orjson', 'msgspec', 'ujson', 'rapidjson', 'simdjson'] },
    { topic: 'retrying calls to the upstream API', choices: ['tenacity', 'stamina', 'backoff', 'retrying', 'opnieuw'] },
    { topic: 'parsing timestamps from partners', choices: ['pendulum', 'ciso8601', 'arrow', 'dateparser', 'iso8601'] },
    { topic: 'caching the lookups', choices: ['cachetools.TTLCache', 'functools.lru_cache', 'diskcache', 'dogpile.cache', 'aiocache'] },
    { topic: 'validating request bodies', choices: ['pydantic v2 models', 'attrs validators', 'marshmallow schemas', 'cerberus rules', 'voluptuous schemas'] },
    {
      topic: 'the schema migration',
      choices: ['an expand-and-contract migration', 'a shadow table swap', 'an online backfill job', 'a dual-write period', 'a blue-green schema'],
    },
  ],
  typescript: [
    { topic: 'JSON serialisation of webhook payloads', choices: ['fast-json-stringify', 'superjson', 'devalue', 'safe-stable-stringify', 'json-bigint'] },
    { topic: 'retrying calls to the upstream API', choices: ['p-retry', 'cockatiel', 'async-retry', 'exponential-backoff', 'retry-axios'] },
    { topic: 'date arithmetic', choices: ['date-fns', 'luxon', 'Temporal polyfill', 'dayjs', 'js-joda'] },
    { topic: 'caching the lookups', choices: ['lru-cache', 'keyv', 'quick-lru', 'mnemonist', 'node-cache'] },
    { topic: 'validating request bodies', choices: ['valibot', 'typebox', 'ajv', 'superstruct', 'arktype'] },
    {
      topic: 'the schema migration',
      choices: ['an expand-and-contract migration', 'a shadow table swap', 'an online backfill job', 'a dual-write period', 'a blue-green schema'],
    },
  ],
};

const REASONS = [
  'it is already pinned in the lockfile, so no new dependency is needed',
  'it keeps the hot path allocation-free, which matters for batches this large',
  'it is the only option that handles the edge case without a custom patch',
  'the other candidates would change the public behaviour the tests pin',
  'it fails loudly on bad input instead of silently coercing it',
  'the team already uses it in two sibling services, so operations know it',
];

const DECISION_SENTENCES = [
  'Decided to use {value} for {topic} because {reason}.',
  'Decided on {value} for {topic}, because {reason}.',
  'I am going with {value} for {topic}; I decided on it because {reason}.',
];

export const decision: FactTemplate = {
  name: 'decision',
  kind: 'decision',
  slot: 'text',
  position: 'any',
  updateSlot: 'text',
  frame: ({ random, project, marker }) => {
    const { topic, choices } = random.pick(DECISIONS[project.language]);
    const text = random.pick(DECISION_SENTENCES).replace('{value}', marker).replace('{topic}', topic).replace('{reason}', random.pick(REASONS));
    const drawValue = (r: Random): string => r.pick(choices);
    return {
      subject: topic,
      question: `What did the agent decide to use for ${topic}?`,
      text,
      drawValue,
      update: ({ marker: next }) => ({
        subject: topic,
        question: '',
        // Shorter than the first decision, so a reader that finds both reads this one first.
        text: `Revisited the decision on ${topic}: decided on ${next} now.`,
        drawValue,
      }),
    };
  },
};

const STILL_FAILING = [
  'Still failing: `{value}` in {file} — it fails on main as well, so it is not caused by this change. That is the next thing to fix.',
  'One test of {file} is still failing: `{value}`. It needs a decision from the team on the expected behaviour; I left it as is for now.',
];

export const stillFailing: FactTemplate = {
  name: 'still-failing',
  kind: 'continuation',
  slot: 'final',
  position: 'late',
  frame: ({ random, project, marker }) => {
    const file = random.pick(project.testFiles);
    const circumstance = random.pick(STILL_FAILING_CIRCUMSTANCES);
    // The statement is one long line among many test-file mentions: the circumstance finds it.
    return {
      subject: circumstance,
      question: `Which test did the agent report as still failing ${toWords(circumstance)}?`,
      text: random.pick(STILL_FAILING).replace('{value}', marker).replace('{file}', file),
      drawValue: (r) => drawTestName(r, project, nounOf(file), circumstance),
    };
  },
};

export const ticket: FactTemplate = {
  name: 'ticket',
  kind: 'recall',
  slot: 'user',
  position: 'any',
  frame: ({ random, project, task, marker, distractors }) => {
    const ticketOf = (value: string): string =>
      random.pick([
        `This is tracked as ticket ${value} ("${task.title}").`,
        `Ticket for "${task.title}": ${value}.`,
        `Please reference ticket ${value} ("${task.title}") in the commit message.`,
      ]);
    const older = `${project.domain.ticketPrefix}-${random.int(1000, 9999)}`;
    return {
      subject: task.id,
      question: `Which ticket did the user give for the task "${task.title}"?`,
      text: distractors ? `${ticketOf(marker)} The older ticket ${older} was closed as a duplicate.` : ticketOf(marker),
      drawValue: (r) => `${project.domain.ticketPrefix}-${r.int(1000, 9999)}`,
    };
  },
};

export const nextMigration: FactTemplate = {
  name: 'next-migration',
  kind: 'continuation',
  slot: 'final',
  position: 'late',
  frame: ({ random, project, marker }) => {
    const noun = random.pick(project.domain.nouns);
    const table = `${noun}s`;
    return {
      subject: table,
      question: `Which migration did the agent say must be run on staging next, for the ${table} table?`,
      text: `Next step: run migration \`${marker}\` on staging before deploying; the fix relies on the column it adds to the ${table} table.`,
      drawValue: (r) => `${String(r.int(10, 399)).padStart(4, '0')}_add_${r.pick(project.domain.fields)}_index_to_${table}`,
    };
  },
};

export const customer: FactTemplate = {
  name: 'customer',
  kind: 'recall',
  slot: 'user',
  position: 'any',
  frame: ({ random, task, marker, distractors }) => {
    const other = `cus_${randomString(random, ALNUM, 12)}`;
    const text = random.pick([
      `The affected customer account for "${task.title}" is ${marker}.`,
      `It was first reported by customer account ${marker} ("${task.title}").`,
    ]);
    return {
      subject: task.id,
      question: `Which customer account did the user say was affected in the task "${task.title}"?`,
      text: distractors ? `${text} Account ${other} saw something similar, but on the old plan, so ignore it.` : text,
      drawValue: (r) => `cus_${randomString(r, ALNUM, 12)}`,
    };
  },
};
