import type { Random } from '../../random.js';

/**
 * The imaginary repositories the synthetic agent works on. Names are plain data; everything
 * random about a session is drawn from them with the session's seeded generator.
 */
export type Language = 'python' | 'typescript';

interface Domain {
  name: string;
  /** Prefix of the issue tracker's keys (e.g. `BILL-1234`). */
  ticketPrefix: string;
  services: readonly string[];
  /** Singular nouns, snake_case. */
  nouns: readonly string[];
  verbs: readonly string[];
  /** Situations a test or a bug is about, snake_case. */
  qualifiers: readonly string[];
  /** Field names on the domain's records. */
  fields: readonly string[];
}

const DOMAINS: readonly Domain[] = [
  {
    name: 'billing',
    ticketPrefix: 'BILL',
    services: ['ledger-api', 'invoice-worker', 'payments-gateway', 'dunning-scheduler'],
    nouns: ['invoice', 'ledger_entry', 'refund', 'proration', 'tax_rate', 'credit_note', 'subscription', 'payout'],
    verbs: ['compute', 'apply', 'reconcile', 'settle', 'void', 'prorate', 'issue', 'allocate'],
    qualifiers: ['partial_month', 'zero_amount', 'negative_balance', 'currency_mismatch', 'leap_year', 'duplicate_webhook', 'late_payment'],
    fields: ['amount_cents', 'currency', 'customer_id', 'period_start', 'period_end', 'status', 'tax_cents', 'created_at'],
  },
  {
    name: 'inventory',
    ticketPrefix: 'INV',
    services: ['stock-api', 'reservation-worker', 'warehouse-sync', 'catalog-indexer'],
    nouns: ['sku', 'reservation', 'shipment', 'stock_level', 'warehouse', 'pick_list', 'backorder', 'supplier'],
    verbs: ['reserve', 'release', 'allocate', 'restock', 'transfer', 'count', 'ship', 'merge'],
    qualifiers: ['expired_hold', 'split_shipment', 'negative_stock', 'bundle_item', 'cross_dock', 'stale_snapshot', 'partial_pick'],
    fields: ['sku_code', 'quantity', 'warehouse_id', 'reserved_until', 'lot_number', 'status', 'updated_at', 'bin_location'],
  },
  {
    name: 'messaging',
    ticketPrefix: 'MSG',
    services: ['delivery-api', 'webhook-dispatcher', 'fanout-worker', 'template-renderer'],
    nouns: ['webhook', 'delivery', 'subscriber', 'channel', 'template', 'digest', 'bounce', 'suppression'],
    verbs: ['dispatch', 'retry', 'render', 'throttle', 'deduplicate', 'schedule', 'verify', 'archive'],
    qualifiers: ['expired_signature', 'unicode_subject', 'rate_limited', 'empty_payload', 'redirect_loop', 'timezone_shift', 'dead_letter'],
    fields: ['endpoint_url', 'attempt', 'next_attempt_at', 'signature', 'payload', 'status', 'channel_id', 'sent_at'],
  },
  {
    name: 'analytics',
    ticketPrefix: 'DATA',
    services: ['ingest-api', 'batch-loader', 'rollup-worker', 'query-service'],
    nouns: ['event', 'partition', 'rollup', 'cohort', 'schema_version', 'watermark', 'segment', 'export'],
    verbs: ['ingest', 'compact', 'aggregate', 'backfill', 'validate', 'partition', 'export', 'replay'],
    qualifiers: ['late_arrival', 'null_user', 'schema_drift', 'clock_skew', 'duplicate_event', 'empty_partition', 'daylight_saving'],
    fields: ['event_id', 'user_id', 'occurred_at', 'partition_key', 'payload', 'schema_version', 'ingested_at', 'source'],
  },
];

export interface Project {
  name: string;
  language: Language;
  domain: Domain;
  /** Package or source directory (`src/billing`). */
  sourceDir: string;
  /** Source files the agent reads and edits. */
  modules: string[];
  /** Test files, one per module. */
  testFiles: string[];
  /** Third-party packages, for listings and imports. */
  dependencies: string[];
}

const PY_DEPENDENCIES = ['fastapi', 'sqlalchemy', 'httpx', 'structlog', 'alembic', 'celery', 'psycopg', 'pytest', 'freezegun', 'hypothesis'];
const TS_DEPENDENCIES = ['fastify', 'kysely', 'undici', 'pino', 'bullmq', 'ioredis', 'jest', 'ts-jest', 'nock', 'dotenv'];
const ORG_NAMES = ['acme', 'northwind', 'globex', 'initech', 'umbrella', 'hooli', 'vandelay', 'stark'];

/** Picks the repository of a session: a domain, a language and its files. */
export function createProject(random: Random): Project {
  const domain = random.pick(DOMAINS);
  const language: Language = random.chance(0.5) ? 'python' : 'typescript';
  const name = `${random.pick(ORG_NAMES)}-${domain.name}`;
  const sourceDir = `src/${domain.name}`;
  const nouns = pickDistinct(random, domain.nouns, 6);
  const modules = nouns.map((noun) => modulePath(language, sourceDir, noun));
  const testFiles = nouns.map((noun) => testPath(language, sourceDir, noun));
  const dependencies = [...(language === 'python' ? PY_DEPENDENCIES : TS_DEPENDENCIES)];
  return { name, language, domain, sourceDir, modules, testFiles, dependencies };
}

export function modulePath(language: Language, sourceDir: string, noun: string): string {
  return language === 'python' ? `${sourceDir}/${noun}.py` : `${sourceDir}/${toCamel(noun)}.ts`;
}

function testPath(language: Language, sourceDir: string, noun: string): string {
  return language === 'python' ? `tests/test_${noun}.py` : `${sourceDir}/__tests__/${toCamel(noun)}.test.ts`;
}

/** The noun a module or test file is about (`src/billing/ledger_entry.py` → `ledger_entry`). */
export function nounOf(path: string): string {
  const base = path.split('/').pop() ?? path;
  const stem = base.replace(/\.(test\.)?(py|ts)$/, '').replace(/^test_/, '');
  return stem.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** An identifier in the project's naming convention, from snake_case words. */
export function identifier(language: Language, ...words: string[]): string {
  const snake = words.join('_');
  return language === 'python' ? snake : toCamel(snake);
}

export function toCamel(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function toPascal(snake: string): string {
  const camel = toCamel(snake);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** snake_case words as prose (`partial_month` → `partial month`). */
export function toWords(snake: string): string {
  return snake.replace(/_/g, ' ');
}

/** `n` different items in a seeded order (all of them when `n` exceeds the list). */
export function pickDistinct<T>(random: Random, items: readonly T[], n: number): T[] {
  const pool = [...items];
  const chosen: T[] = [];
  while (chosen.length < n && pool.length > 0) {
    const index = random.int(0, pool.length - 1);
    chosen.push(pool.splice(index, 1)[0] as T);
  }
  return chosen;
}

/** A string of `length` characters from `alphabet`. */
export function randomString(random: Random, alphabet: string, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet.charAt(random.int(0, alphabet.length - 1));
  return text;
}

export const HEX = '0123456789abcdef';
export const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Fills a template: `{name}` is replaced by `values.name`. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** Third person singular of a verb (`dispatch` → `dispatches`, `retry` → `retries`). */
export function thirdPerson(verb: string): string {
  if (/(s|sh|ch|x|z)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/** A noun phrase with its indefinite article (`an expired hold`, `a sku`). */
export function withArticle(phrase: string): string {
  return `${/^[aeiou]/i.test(phrase) ? 'an' : 'a'} ${phrase}`;
}
