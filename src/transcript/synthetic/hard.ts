import type { Random } from '../../random.js';
import type { FactTemplate } from './facts.js';
import { numberLines } from './code.js';

/**
 * What `hard: true` adds to a synthetic session (harder probes): a fact only in early tool output,
 * and questions about things the session never mentions, whose right answer is to say so. (Value
 * updates and look-alike distractors are part of the fact templates themselves.)
 */

/** A dependency pinned in the manifest read at the very start: only early tool output holds it. */
export const pinnedDependency: FactTemplate = {
  name: 'pinned-dependency',
  kind: 'recall',
  slot: 'tool',
  position: 'early',
  frame: ({ random, project, marker }) => {
    const dependency = random.pick(project.dependencies);
    const python = project.language === 'python';
    const path = python ? 'requirements.txt' : 'package.json';
    const others = project.dependencies.filter((d) => d !== dependency);
    const version = (): string => `${random.int(1, 12)}.${random.int(0, 30)}.${random.int(0, 20)}`;
    const lines = python
      ? [...others.map((d) => `${d}==${version()}`), `${dependency}==${marker}  # version pinned: newer releases break the test fixtures`]
      : [
          '{',
          `  "name": "${project.name}",`,
          '  "private": true,',
          '  "dependencies": {',
          ...others.map((d) => `    "${d}": "^${version()}",`),
          // npm keeps "//" keys as comments; the line that explains the pin comes right before it.
          `    "//": "${dependency} version pinned: newer releases break the test fixtures",`,
          `    "${dependency}": "${marker}"`,
          '  }',
          '}',
        ];
    return {
      subject: dependency,
      thinking: 'Start with the manifest, to know what the project runs on.',
      question: `Which version of ${dependency} is pinned?`,
      // The pin's line belongs under the comment that explains it, in a manifest any preview holds.
      call: { name: 'read_file', args: { path }, result: numberLines(lines), keepsLayout: true },
      drawValue: (r: Random) => `${r.int(1, 12)}.${r.int(0, 30)}.${r.int(0, 20)}`,
    };
  },
};

/**
 * Questions a coding session like these never answers, each with the content words a reader
 * would look for. Only those whose words occur nowhere in the session are asked.
 */
export const ABSENT_QUESTIONS: readonly { question: string; words: readonly string[] }[] = [
  { question: 'Which Kubernetes namespace did the agent deploy to?', words: ['kubernetes', 'namespace'] },
  { question: 'Which Terraform workspace did the agent select?', words: ['terraform', 'workspace'] },
  { question: 'What Grafana dashboard UID did the agent link in its summary?', words: ['grafana', 'dashboard', 'uid'] },
  { question: 'Which Sentry release tag did the agent create?', words: ['sentry', 'release', 'tag'] },
  { question: 'Which Redis eviction policy did the agent configure?', words: ['redis', 'eviction', 'policy'] },
  { question: 'What S3 bucket region did the agent choose for backups?', words: ['bucket', 'region', 'backups'] },
  { question: 'Which GraphQL schema file did the agent regenerate?', words: ['graphql', 'schema', 'regenerate'] },
  { question: 'Which Helm chart version did the agent bump?', words: ['helm', 'chart'] },
  { question: 'Which OpenTelemetry exporter endpoint did the agent set?', words: ['opentelemetry', 'exporter', 'endpoint'] },
  { question: 'What Vault secret path did the agent read the token from?', words: ['vault', 'secret', 'token'] },
];

/** Whether `word` occurs in `text` as a word (or the start of one: `backups` for `backup`). */
function mentions(text: string, word: string): boolean {
  return new RegExp(`\\b${word}`, 'i').test(text);
}

/**
 * Up to `count` questions about things absent from `sessionText`, in a seeded order. A question
 * whose words the session uses is skipped, so "not in the session" stays true.
 */
export function pickAbsentQuestions(random: Random, sessionText: string, count: number): string[] {
  const order = ABSENT_QUESTIONS.map((q) => ({ q, key: random.next() })).sort((a, b) => a.key - b.key);
  return order
    .filter(({ q }) => q.words.every((word) => !mentions(sessionText, word)))
    .slice(0, count)
    .map(({ q }) => q.question);
}
