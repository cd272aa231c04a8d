import type { Random } from '../../random.js';
import type { FactTemplate } from './facts.js';
import { numberLines } from './code.js';
import { commitSubject, renderConfigYaml, renderEnvFile, renderShell } from './shell.js';
import { drawTestName, FAILING_CIRCUMSTANCES, renderTestRun } from './tests.js';
import { ALNUM, HEX, modulePath, nounOf, randomString, toCamel, toWords } from './vocab.js';

/** Planted facts that live in a tool call and its result (see synthetic-facts.ts). */

export const configPort: FactTemplate = {
  name: 'config-port',
  kind: 'recall',
  slot: 'tool',
  position: 'early',
  updateSlot: 'tool',
  frame: ({ random, project, marker, targetChars, distractors }) => {
    const service = random.pick(project.domain.services);
    const path = random.pick(['config/settings.yaml', 'deploy/config.yaml', 'config/services.yaml']);
    const portLine = (value: string, owner: string): string => `port: ${value}  # ${owner} listener`;
    const beside = distractors ? (other: string) => [portLine(String(random.int(20000, 65000)), other)] : undefined;
    const lines = renderConfigYaml(random, project, service, [portLine(marker, service), `read_timeout: ${random.int(2, 60)}s`], targetChars, beside);
    const drawValue = (r: Random): string => String(r.int(20000, 65000));
    return {
      subject: service,
      thinking: 'Before going further I want to see how the deployment is set up.',
      question: `Which port is the ${service} listener set to in ${path}?`,
      call: { name: 'read_file', args: { path }, result: numberLines(lines) },
      drawValue,
      update: ({ marker: next, previous }) => ({
        subject: service,
        question: '',
        thinking: 'That port collides with the metrics sidecar on the staging hosts, so it has to move.',
        text: `Moving the ${service} listener in ${path} to port ${next}, away from the metrics sidecar.`,
        call: {
          name: 'edit_file',
          args: { path, old_string: portLine(previous, service), new_string: portLine(next, service) },
          result: `The file ${path} has been updated.`,
        },
        drawValue,
      }),
    };
  },
};

export const failingTest: FactTemplate = {
  name: 'failing-test',
  kind: 'recall',
  slot: 'tool',
  position: 'any',
  frame: ({ random, project, task, marker, targetChars }) => {
    const command = project.language === 'python' ? `pytest -v ${task.testFile}` : `npx jest ${task.testFile}`;
    // The test's name ends in this circumstance; the question names it, as a person would.
    const circumstance = random.pick(FAILING_CIRCUMSTANCES);
    return {
      subject: `${task.testFile} ${circumstance}`,
      thinking: 'First reproduce the problem and read the output carefully.',
      // Jest prints the describe block beside the test (`● stockLevel › …`); pytest the file.
      question:
        project.language === 'python'
          ? `Which test of ${task.testFile} failed ${toWords(circumstance)}?`
          : `Which ${toCamel(nounOf(task.testFile))} test failed ${toWords(circumstance)}?`,
      call: {
        name: 'run_tests',
        args: { command },
        result: renderTestRun(random, project, { command, testFile: task.testFile, failing: marker, targetChars }),
      },
      drawValue: (r) => drawTestName(r, project, nounOf(task.testFile), circumstance),
    };
  },
};

const PURPOSES = [
  'rounding rules',
  'retry policy',
  'shared lookup helpers',
  'input validators',
  'test data builders',
  'feature flag checks',
  'audit log writer',
];
const NEW_FILE_SUFFIXES = ['rules', 'policy', 'helpers', 'validators', 'builders', 'flags', 'audit', 'guards', 'adapters'];

export const createdFile: FactTemplate = {
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

export const revertCommit: FactTemplate = {
  name: 'revert-commit',
  kind: 'recall',
  slot: 'tool',
  position: 'any',
  frame: ({ random, project, marker, targetChars, distractors }) => {
    const subject = commitSubject(random, project);
    const command = `git log --oneline -n ${random.int(20, 60)}`;
    let log = renderShell(random, project, 'git-log', targetChars, `${marker} Revert "${subject}"`);
    if (distractors) {
      // Another revert, of another change: the same sentence with another hash.
      const other = commitSubject(random, project);
      if (other !== subject) log = `${randomString(random, HEX, 7)} Revert "${other}"\n${log}`;
    }
    return {
      subject,
      thinking: 'The behaviour changed recently; the history should show what touched it.',
      question: `Which commit (short hash) reverted "${subject}"?`,
      call: { name: 'shell', args: { command }, result: log },
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

export const envValue: FactTemplate = {
  name: 'env-value',
  kind: 'recall',
  slot: 'tool',
  position: 'any',
  updateSlot: 'tool',
  frame: ({ random, project, marker, targetChars, distractors }) => {
    const key = random.pick(ENV_KEYS);
    const envName = (service: string): string => `${service.toUpperCase().replace(/-/g, '_')}_${key.suffix}`;
    const service = random.pick(project.domain.services);
    const name = envName(service);
    const path = random.pick(['.env.example', 'deploy/staging.env', 'config/ci.env']);
    const drawValue = (r: Random): string => `${key.prefix}_${randomString(r, ALNUM, 10)}`;
    const planted = [`${name}=${marker}`];
    if (distractors) {
      const other = random.pick(project.domain.services.filter((s) => s !== service));
      planted.push(`${envName(other)}=${drawValue(random)}`);
    }
    return {
      subject: name,
      thinking: 'The integration settings come from an env file; check what the environment provides.',
      question: `What is ${name} in ${path}?`,
      call: { name: 'read_file', args: { path }, result: numberLines(renderEnvFile(random, project, planted, targetChars)) },
      drawValue,
      update: ({ marker: next, previous }) => ({
        subject: name,
        question: '',
        thinking: 'The old credential was revoked this morning; the env file must carry the new one.',
        text: `Rotating ${name} in ${path}: the old value was revoked, so it is set to ${next} now.`,
        call: {
          name: 'edit_file',
          args: { path, old_string: `${name}=${previous}`, new_string: `${name}=${next}` },
          result: `The file ${path} has been updated.`,
        },
        drawValue,
      }),
    };
  },
};
