import type { Random } from '../sim/random.js';
import type { ProbeKind } from './types.js';
import { numberLines } from './synthetic-code.js';
import type { ToolAction } from './synthetic-prose.js';
import { commitSubject, renderConfigYaml, renderEnvFile, renderShell } from './synthetic-shell.js';
import { drawTestName, renderTestRun } from './synthetic-tests.js';
import { ALNUM, HEX, modulePath, nounOf, randomString, type Project } from './synthetic-vocab.js';

/**
 * Facts the generator plants, each with the probe that asks about it. A fact's value is written
 * as a marker while the session is rendered and chosen afterwards, so that it can be checked to
 * occur nowhere else in the session (a strategy that drops the evidence loses the answer).
 */

/** Where a fact lives: a tool result, an assistant message, a task's last message, a user request. */
export type FactSlot = 'tool' | 'text' | 'final' | 'user';
/** Which free slot is taken: the first, a random one, or the last. */
export type FactPosition = 'early' | 'any' | 'late';

export interface FactContext {
  random: Random;
  project: Project;
  /** The task whose slot holds the fact. */
  task: { id: string; title: string; testFile: string };
  /** Stands for the value until it is chosen. */
  marker: string;
  /** Size of a tool result, in characters. */
  targetChars: number;
}

/** What a fact puts into its slot, and how its value is drawn. */
export interface FactFrame {
  /** Distinguishes two facts of one template in a session (their questions must differ). */
  subject: string;
  question: string;
  /** For tool facts: the call of the step and its result. */
  call?: { name: ToolAction; args: Record<string, unknown>; result: string };
  /** Tool facts: replaces what the assistant says; other facts: appended to the message text. */
  text?: string;
  /** Tool facts: the thinking of the step (never holds the value). */
  thinking?: string;
  drawValue(random: Random): string;
}

export interface FactTemplate {
  name: string;
  kind: ProbeKind;
  slot: FactSlot;
  position: FactPosition;
  frame(context: FactContext): FactFrame;
}

const configPort: FactTemplate = {
  name: 'config-port',
  kind: 'recall',
  slot: 'tool',
  position: 'early',
  frame: ({ random, project, marker, targetChars }) => {
    const service = random.pick(project.domain.services);
    const path = random.pick(['config/settings.yaml', 'deploy/config.yaml', 'config/services.yaml']);
    const lines = renderConfigYaml(random, project, service, [`port: ${marker}`, `read_timeout: ${random.int(2, 60)}s`], targetChars);
    return {
      subject: service,
      thinking: `Before going further I want to know how ${service} is wired: its port, timeouts and workers are in ${path}.`,
      question: `Which port is the ${service} service configured to listen on in ${path}?`,
      call: { name: 'read_file', args: { path }, result: numberLines(lines) },
      drawValue: (r) => String(r.int(20000, 65000)),
    };
  },
};

const failingTest: FactTemplate = {
  name: 'failing-test',
  kind: 'recall',
  slot: 'tool',
  position: 'any',
  frame: ({ random, project, task, marker, targetChars }) => {
    const command = project.language === 'python' ? `pytest -v ${task.testFile}` : `npx jest ${task.testFile}`;
    return {
      subject: task.id,
      thinking: `First reproduce the problem: run ${task.testFile} and see which test fails and how.`,
      question: `Which test failed when the agent ran ${task.testFile} during the task "${task.title}"?`,
      call: { name: 'run_tests', args: { command }, result: renderTestRun(random, project, { command, testFile: task.testFile, failing: marker, targetChars }) },
      drawValue: (r) => drawTestName(r, project, nounOf(task.testFile), true),
    };
  },
};

/** Design decisions per language: the topic, the options the agent chooses among, and reasons. */
const DECISIONS: Record<Project['language'], readonly { topic: string; choices: readonly string[] }[]> = {
  python: [
    { topic: 'JSON serialisation of webhook payloads', choices: ['orjson', 'msgspec', 'ujson'] },
    { topic: 'retrying calls to the upstream API', choices: ['tenacity', 'stamina', 'backoff'] },
    { topic: 'parsing timestamps from partners', choices: ['pendulum', 'ciso8601', 'arrow'] },
    { topic: 'caching the lookups', choices: ['cachetools.TTLCache', 'functools.lru_cache', 'diskcache'] },
    { topic: 'validating request bodies', choices: ['pydantic v2 models', 'attrs validators', 'marshmallow schemas'] },
    { topic: 'the schema migration', choices: ['an expand-and-contract migration', 'a shadow table swap', 'an online backfill job'] },
  ],
  typescript: [
    { topic: 'JSON serialisation of webhook payloads', choices: ['fast-json-stringify', 'superjson', 'devalue'] },
    { topic: 'retrying calls to the upstream API', choices: ['p-retry', 'cockatiel', 'async-retry'] },
    { topic: 'date arithmetic', choices: ['date-fns', 'luxon', 'Temporal polyfill'] },
    { topic: 'caching the lookups', choices: ['lru-cache', 'keyv', 'quick-lru'] },
    { topic: 'validating request bodies', choices: ['valibot', 'typebox', 'ajv'] },
    { topic: 'the schema migration', choices: ['an expand-and-contract migration', 'a shadow table swap', 'an online backfill job'] },
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
  'Decision: {value} for {topic}, because {reason}.',
  'I am going with {value} for {topic}; I decided on it because {reason}.',
];

const decision: FactTemplate = {
  name: 'decision',
  kind: 'decision',
  slot: 'text',
  position: 'any',
  frame: ({ random, project, marker }) => {
    const { topic, choices } = random.pick(DECISIONS[project.language]);
    const text = random.pick(DECISION_SENTENCES).replace('{value}', marker).replace('{topic}', topic).replace('{reason}', random.pick(REASONS));
    return { subject: topic, question: `What did the agent decide to use for ${topic}?`, text, drawValue: (r) => r.pick(choices) };
  },
};

const PURPOSES = ['rounding rules', 'retry policy', 'shared lookup helpers', 'input validators', 'test data builders', 'feature flag checks', 'audit log writer'];
const NEW_FILE_SUFFIXES = ['rules', 'policy', 'helpers', 'validators', 'builders', 'flags', 'audit', 'guards', 'adapters'];

const createdFile: FactTemplate = {
  name: 'created-file',
  kind: 'artifact',
  slot: 'tool',
  position: 'any',
  frame: ({ random, project, marker }) => {
    const purpose = random.pick(PURPOSES);
    const content = project.language === 'python' ? `"""The ${purpose}."""\n\n__all__: list[str] = []\n` : `/** The ${purpose}. */\nexport {};\n`;
    return {
      subject: purpose,
      thinking: `A separate file for the ${purpose} keeps the module small and the change easy to review.`,
      question: `Which new file did the agent create to hold the ${purpose}?`,
      text: `Creating \`${marker}\` to hold the ${purpose}, so the module itself stays small.`,
      call: { name: 'edit_file', args: { path: marker, content }, result: `File created successfully at: ${marker}` },
      drawValue: (r) => modulePath(project.language, project.sourceDir, `${r.pick(project.domain.nouns)}_${r.pick(NEW_FILE_SUFFIXES)}`),
    };
  },
};

const STILL_FAILING = [
  'Still failing: `{value}` in {file} — it fails on main as well, so it is not caused by this change. That is the next thing to fix.',
  'One test is still red: `{value}` ({file}). It needs a decision from the team on the expected behaviour; I left it as is for now.',
];

const stillFailing: FactTemplate = {
  name: 'still-failing',
  kind: 'continuation',
  slot: 'final',
  position: 'late',
  frame: ({ random, project, marker }) => {
    const file = random.pick(project.testFiles);
    return {
      subject: file,
      question: `Which test in ${file} did the agent report as still failing?`,
      text: random.pick(STILL_FAILING).replace('{value}', marker).replace('{file}', file),
      drawValue: (r) => drawTestName(r, project, nounOf(file), true),
    };
  },
};

const ticket: FactTemplate = {
  name: 'ticket',
  kind: 'recall',
  slot: 'user',
  position: 'any',
  frame: ({ random, project, task, marker }) => ({
    subject: task.id,
    question: `Which ticket did the user reference for the task "${task.title}"?`,
    text: random.pick([`This is tracked as ${marker}.`, `Ticket: ${marker}.`, `Please reference ${marker} in the commit message.`]),
    drawValue: (r) => `${project.domain.ticketPrefix}-${r.int(1000, 9999)}`,
  }),
};

const revertCommit: FactTemplate = {
  name: 'revert-commit',
  kind: 'recall',
  slot: 'tool',
  position: 'any',
  frame: ({ random, project, marker, targetChars }) => {
    const subject = commitSubject(random, project);
    const command = `git log --oneline -n ${random.int(20, 60)}`;
    return {
      subject,
      thinking: 'The behaviour changed recently; the history should show which commit touched it, or reverted it.',
      question: `Which commit (short hash) reverted "${subject}"?`,
      call: { name: 'shell', args: { command }, result: renderShell(random, project, 'git-log', targetChars, `${marker} Revert "${subject}"`) },
      drawValue: (r) => randomString(r, HEX, 7),
    };
  },
};

const ENV_KEYS = [
  { suffix: 'SIGNING_KEY_ID', prefix: 'kid' },
  { suffix: 'TENANT_ID', prefix: 'tnt' },
  { suffix: 'OAUTH_CLIENT_ID', prefix: 'cli' },
  { suffix: 'EXPORT_BUCKET', prefix: 'bkt' },
];

const envValue: FactTemplate = {
  name: 'env-value',
  kind: 'recall',
  slot: 'tool',
  position: 'any',
  frame: ({ random, project, marker, targetChars }) => {
    const key = random.pick(ENV_KEYS);
    const name = `${random.pick(project.domain.services).toUpperCase().replace(/-/g, '_')}_${key.suffix}`;
    const path = random.pick(['.env.example', 'deploy/staging.env', 'config/ci.env']);
    return {
      subject: name,
      thinking: `The integration settings, ${name} among them, are in ${path}; check what the environment provides.`,
      question: `What value does ${path} set for ${name}?`,
      call: { name: 'read_file', args: { path }, result: numberLines(renderEnvFile(random, project, [`${name}=${marker}`], targetChars)) },
      drawValue: (r) => `${key.prefix}_${randomString(r, ALNUM, 10)}`,
    };
  },
};

const nextMigration: FactTemplate = {
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

const customer: FactTemplate = {
  name: 'customer',
  kind: 'recall',
  slot: 'user',
  position: 'any',
  frame: ({ random, task, marker }) => ({
    subject: task.id,
    question: `Which customer account did the user say was affected in the task "${task.title}"?`,
    text: random.pick([`The affected account is ${marker}.`, `It was first reported by account ${marker}.`]),
    drawValue: (r) => `cus_${randomString(r, ALNUM, 12)}`,
  }),
};

/** The templates in the order facts are planted; the list repeats when more facts are asked for. */
export const FACT_TEMPLATES: readonly FactTemplate[] = [
  configPort,
  failingTest,
  decision,
  createdFile,
  stillFailing,
  ticket,
  revertCommit,
  envValue,
  nextMigration,
  customer,
];

