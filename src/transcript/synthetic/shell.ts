import type { Random } from '../../random.js';
import { renderUsageLine } from './code.js';
import { fillLines } from './tests.js';
import { HEX, nounOf, randomString, toWords, type Project } from './vocab.js';

/** Output of `grep`, `shell` and configuration files, as the agent's tools return them. */

export function renderGrep(random: Random, project: Project, pattern: string, targetChars: number): string {
  const files = [...project.modules, ...project.testFiles];
  const hits = fillLines(targetChars, () => {
    const file = random.pick(files);
    return `${file}:${random.int(3, 480)}:${renderUsageLine(random, project, pattern, nounOf(file))}`;
  });
  return hits.join('\n');
}

export type ShellKind = 'git-log' | 'git-diff' | 'ls' | 'deps' | 'logs' | 'git-status';

export const SHELL_KINDS: readonly ShellKind[] = ['git-log', 'git-diff', 'ls', 'deps', 'logs', 'git-status'];

/** The command line the agent types for a kind of shell call. */
export function shellCommand(random: Random, project: Project, kind: ShellKind): string {
  switch (kind) {
    case 'git-log':
      return `git log --oneline -n ${random.int(20, 60)}`;
    case 'git-diff':
      return 'git diff --stat HEAD~5';
    case 'ls':
      return `ls -la ${project.sourceDir}`;
    case 'deps':
      return project.language === 'python' ? 'pip list --format=columns' : 'npm ls --depth=0';
    case 'logs':
      return `docker compose logs --tail ${random.int(50, 200)} ${random.pick(project.domain.services)}`;
    case 'git-status':
      return 'git status --short --branch';
  }
}

/** Output of a shell command; `extraLine` (a planted fact) is inserted among the lines. */
export function renderShell(random: Random, project: Project, kind: ShellKind, targetChars: number, extraLine?: string): string {
  const make = LINE_MAKERS[kind];
  const lines = fillLines(targetChars, () => make(random, project));
  if (extraLine !== undefined) lines.splice(random.int(0, Math.min(lines.length, 8)), 0, extraLine);
  return lines.join('\n');
}

const COMMIT_SUBJECTS = [
  'Fix {noun} rounding in {qual} case',
  'Add {verb} endpoint for {noun}s',
  'Refactor {noun} repository queries',
  'Bump {dep} to latest minor',
  'Log {noun} ids on {verb} failure',
  'Handle {qual} in {noun} {verb}',
  'Speed up {noun} lookups with an index',
  'Tidy {noun} fixtures',
];

const LINE_MAKERS: Record<ShellKind, (random: Random, project: Project) => string> = {
  'git-log': (random, project) => `${randomString(random, HEX, 7)} ${commitSubject(random, project)} (#${random.int(100, 999)})`,
  'git-diff': (random, project) => {
    const changed = random.int(1, 80);
    return ` ${random.pick([...project.modules, ...project.testFiles]).padEnd(44)} | ${String(changed).padStart(3)} ${'+'.repeat(Math.min(30, changed))}`;
  },
  ls: (random, project) => {
    const file = `${random.pick(project.domain.nouns)}${random.pick(['', '_utils', '_types', '_test'])}.${project.language === 'python' ? 'py' : 'ts'}`;
    return `-rw-r--r--  1 dev dev ${String(random.int(200, 9999)).padStart(5)} Dec ${String(random.int(1, 30)).padStart(2)} ${random.int(10, 23)}:${String(random.int(0, 59)).padStart(2, '0')} ${file}`;
  },
  deps: (random, project) => `${random.pick(project.dependencies).padEnd(24)} ${random.int(0, 9)}.${random.int(0, 30)}.${random.int(0, 12)}`,
  logs: (random, project) => {
    const service = random.pick(project.domain.services);
    const level = random.pick(['INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR']);
    const noun = random.pick(project.domain.nouns);
    return `${service}-1  | ${level.padEnd(5)} ${random.pick(project.domain.verbs)} ${toWords(noun)} id=${random.int(1, 999)} took=${random.int(1, 900)}ms`;
  },
  'git-status': (random, project) => `${random.pick([' M', ' M', '??', ' D', 'A '])} ${random.pick([...project.modules, ...project.testFiles])}`,
};

export function commitSubject(random: Random, project: Project): string {
  const { domain } = project;
  return random
    .pick(COMMIT_SUBJECTS)
    .replace('{noun}', toWords(random.pick(domain.nouns)))
    .replace('{verb}', random.pick(domain.verbs))
    .replace('{qual}', toWords(random.pick(domain.qualifiers)))
    .replace('{dep}', random.pick(project.dependencies));
}

/**
 * A YAML service configuration; `planted` lines go into the block of `service`, and `beside(other)`
 * lines (look-alikes of the planted ones, for harder probes) into every other service's block.
 */
export function renderConfigYaml(
  random: Random,
  project: Project,
  service: string,
  planted: string[],
  targetChars: number,
  beside: (other: string) => string[] = () => [],
): string[] {
  const lines = [
    `# Service configuration for ${project.name}. Environment variables override these values.`,
    'services:',
    `  ${service}:`,
    '    host: 0.0.0.0',
    ...planted.map((line) => `    ${line}`),
    `    workers: ${random.int(2, 16)}`,
  ];
  const others = project.domain.services.filter((s) => s !== service);
  const blocks = [
    ...others.map((other) => [
      `  ${other}:`,
      `    host: ${other}`,
      ...beside(other).map((line) => `    ${line}`),
      `    workers: ${random.int(1, 8)}`,
      `    queue: ${other.replace(/-/g, '_')}`,
    ]),
    ['database:', `  url: postgresql://app@db/${project.domain.name}`, `  pool_size: ${random.int(5, 40)}`, '  statement_timeout: 30s'],
    ['logging:', `  level: ${random.pick(['info', 'debug', 'warning'])}`, '  format: json'],
  ];
  for (const block of blocks) lines.push(...block);
  // Beyond the fixed sections, long real configs are mostly feature flags and retry policies.
  let size = lines.join('\n').length;
  lines.push('features:');
  while (size < targetChars) {
    const noun = random.pick(project.domain.nouns);
    const entry = [
      `  ${random.pick(project.domain.verbs)}_${noun}_${random.pick(project.domain.qualifiers)}:`,
      `    enabled: ${random.pick(['true', 'false'])}`,
      `    rollout: ${random.int(0, 100)}%`,
      `    retries: ${random.int(0, 9)}`,
    ];
    lines.push(...entry);
    size += entry.join('\n').length + 1;
  }
  return lines;
}

/** A `.env.example`; `planted` lines go among the others (look-alikes of a fact included). */
export function renderEnvFile(random: Random, project: Project, planted: string[], targetChars: number): string[] {
  const lines = [
    '# Copy to .env and fill in. Never commit real secrets.',
    `DATABASE_URL=postgresql://app:app@localhost/${project.domain.name}`,
    'LOG_LEVEL=info',
  ];
  let size = lines.join('\n').length;
  while (size < targetChars) {
    const service = random.pick(project.domain.services).toUpperCase().replace(/-/g, '_');
    const field = random.pick(project.domain.fields).toUpperCase();
    const line = random.chance(0.2)
      ? `# ${toWords(random.pick(project.domain.nouns))} settings`
      : `${service}_${field}_${random.pick(['TIMEOUT_MS', 'LIMIT', 'ENABLED', 'TTL'])}=${random.int(1, 900)}`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.splice(random.int(2, Math.min(lines.length, 12)), 0, ...planted);
  return lines;
}
