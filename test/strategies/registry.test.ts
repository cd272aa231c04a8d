import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { strategies } from '../../src/strategies/index.js';
import type { Strategy } from '../../src/strategies/types.js';
import type { ContextMessage } from '../../src/transcript/types.js';
import { checkConformance, conformanceSession, driveStrategy, CONFORMANCE_WINDOW } from '../../src/replay/conformance.js';
import { createHarness } from '../helpers/strategy-harness.js';

/**
 * One test over the whole registry (STYLE.md "a test over each whole registry"): every strategy,
 * including those added later, passes the invariants of issue 3 (src/replay/conformance.ts,
 * which `ctxbench verify` runs on a user's strategy too) on a synthetic session whose history
 * outgrows a small window, so that the compacting strategies act.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');
const strategiesDoc = readFileSync(`${root}docs/strategies.md`, 'utf8');
const session = conformanceSession();

describe.each(Object.entries(strategies) as [string, Strategy][])('registered strategy %s', (key, strategy) => {
  it('is named after its file, which exports it, and has a description, a test file, a README row and a docs/strategies.md row', async () => {
    expect(strategy.name).toBe(key);
    const file = `${root}src/strategies/${key}.ts`;
    expect(existsSync(file)).toBe(true);
    const module = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    expect(Object.values(module)).toContain(strategy);
    expect(strategy.description.trim().length).toBeGreaterThan(20);
    expect(existsSync(`${root}test/strategies/${key}.test.ts`)).toBe(true);
    expect(readme).toContain(`| \`${key}\` |`);
    expect(strategiesDoc).toContain(`| \`${key}\` |`);
  });

  it('has defaults that pass its own schema', () => {
    const defaults: unknown = strategy.options.parse({});
    expect(strategy.options.safeParse(defaults).success).toBe(true);
    expect(strategy.options.parse(defaults)).toEqual(defaults);
  });

  it('keeps calls with their results, sends the system prompt and the newest user message, never grows on compaction, and is deterministic', async () => {
    const violations = await checkConformance(strategy, strategy.options.parse({}), session);
    expect(violations.slice(0, 5).map((v) => v.message)).toEqual([]);
  });
});

describe('the registry test itself', () => {
  it('catches a strategy that sends a tool result without its call', async () => {
    const broken: Strategy = {
      ...strategies.full,
      prepare: (state: { messages: ContextMessage[] }) => state.messages.filter((m) => m.role !== 'assistant' || m.toolCalls === undefined),
    };
    const run = await driveStrategy(broken, broken.options.parse({}), session);
    expect(run.violations.some((v) => v.message.includes('sent without its call'))).toBe(true);
  });

  it('uses a session that outgrows the window, so that compacting strategies act', async () => {
    const run = await driveStrategy(strategies.full, {}, session);
    const tokens = createHarness().env.countMessages(run.contexts[run.contexts.length - 1] ?? []);
    expect(tokens).toBeGreaterThan(CONFORMANCE_WINDOW);
  });
});
