import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { strategies } from '../../src/strategies/index.js';
import type { Strategy, StrategyAction } from '../../src/strategies/types.js';
import type { ContextMessage, MessageEvent, Transcript } from '../../src/transcript/types.js';
import { generateSession } from '../../src/transcript/synthetic.js';
import { createHarness } from '../helpers/strategy-harness.js';
import type { createArchive } from '../../src/engine/archive.js';

/**
 * One test over the whole registry (STYLE.md "a test over each whole registry"): every strategy,
 * including those added later, passes the invariants of issue 3 on a synthetic session whose
 * history outgrows a small window, so that the compacting strategies act.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');
const session = generateSession({ steps: 60, seed: 3, toolOutputTokens: 600 });
const WINDOW = 20_000;
// Actions that take tokens out of the context: none may report more tokens after than before.
const REDUCING = new Set<StrategyAction['action']>(['compact', 'evict', 'truncate', 'drop', 'isolate', 'offload', 'cap-thinking']);

interface Drive {
  contexts: ContextMessage[][];
  actions: StrategyAction[];
  violations: string[];
}

/** Checks one prepared context against the history observed so far. */
function checkContext(step: number, context: readonly ContextMessage[], history: readonly MessageEvent[]): string[] {
  const problems: string[] = [];
  const calledBefore = new Set<string>();
  const results = new Set(context.filter((m) => m.role === 'tool').map((m) => m.toolCallId));
  const recorded = new Set(history.filter((m) => m.role === 'tool').map((m) => m.toolCallId));
  for (const m of context) {
    if (m.role === 'tool' && (m.toolCallId === undefined || !calledBefore.has(m.toolCallId))) problems.push(`step ${step}: result ${m.id} sent without its call`);
    for (const call of m.role === 'assistant' ? (m.toolCalls ?? []) : []) {
      calledBefore.add(call.id);
      if (recorded.has(call.id) && !results.has(call.id)) problems.push(`step ${step}: call ${call.id} sent without its recorded result`);
    }
  }
  const system = history.find((m) => m.role === 'system');
  if (system !== undefined && !context.some((m) => m.role === 'system' && m.text === system.text)) problems.push(`step ${step}: system prompt not sent`);
  const newestUser = [...history].reverse().find((m) => m.role === 'user');
  if (newestUser !== undefined && !context.some((m) => m.role === 'user' && (m.id === newestUser.id || m.text === newestUser.text))) {
    problems.push(`step ${step}: newest user message ${newestUser.id} not sent`);
  }
  return problems;
}

/** Feeds the session as the engine does: prepare at each assistant message, then observe it. */
async function drive(strategy: Strategy, transcript: Transcript): Promise<Drive> {
  const harness = createHarness({ window: WINDOW });
  const { env } = harness;
  const state: unknown = strategy.init(strategy.options.parse({}), { sessionId: transcript.header.id, window: WINDOW });
  const history: MessageEvent[] = [];
  const run: Drive = { contexts: [], actions: harness.actions, violations: [] };
  for (const event of transcript.events) {
    if (event.type === 'message' && event.role === 'assistant') {
      const context = await strategy.prepare(state, env);
      run.contexts.push(context);
      run.violations.push(...checkContext(env.step, context, history));
      env.step += 1;
    }
    if (event.type === 'message') {
      (env.archive as ReturnType<typeof createArchive>).add(event);
      history.push(event);
    }
    await strategy.observe?.(event, state, env);
  }
  return run;
}

describe.each(Object.entries(strategies) as Array<[string, Strategy]>)('registered strategy %s', (key, strategy) => {
  it('is named after its file, which exports it, and has a description, a test file and a README row', async () => {
    expect(strategy.name).toBe(key);
    const file = `${root}src/strategies/${key}.ts`;
    expect(existsSync(file)).toBe(true);
    const module = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    expect(Object.values(module)).toContain(strategy);
    expect(strategy.description.trim().length).toBeGreaterThan(20);
    expect(existsSync(`${root}test/strategies/${key}.test.ts`)).toBe(true);
    expect(readme).toContain(`| \`${key}\` |`);
  });

  it('has defaults that pass its own schema', () => {
    const defaults: unknown = strategy.options.parse({});
    expect(strategy.options.safeParse(defaults).success).toBe(true);
    expect(strategy.options.parse(defaults)).toEqual(defaults);
  });

  it('keeps calls with their results, sends the system prompt and the newest user message, never grows on compaction, and is deterministic', async () => {
    const first = await drive(strategy, session);
    expect(first.violations.slice(0, 5)).toEqual([]);
    const growing = first.actions.filter((a) => REDUCING.has(a.action) && a.tokensAfter > a.tokensBefore);
    expect(growing).toEqual([]);
    const second = await drive(strategy, session);
    expect(JSON.stringify(second.contexts)).toBe(JSON.stringify(first.contexts));
    expect(JSON.stringify(second.actions)).toBe(JSON.stringify(first.actions));
  });
});

describe('the registry test itself', () => {
  it('catches a strategy that sends a tool result without its call', async () => {
    const broken: Strategy = {
      ...strategies.full,
      prepare: (state: { messages: ContextMessage[] }) => state.messages.filter((m) => m.role !== 'assistant' || m.toolCalls === undefined),
    };
    const run = await drive(broken, session);
    expect(run.violations.some((v) => v.includes('sent without its call'))).toBe(true);
  });

  it('uses a session that outgrows the window, so that compacting strategies act', async () => {
    const run = await drive(strategies.full, session);
    const tokens = createHarness().env.countMessages(run.contexts[run.contexts.length - 1] ?? []);
    expect(tokens).toBeGreaterThan(WINDOW);
  });
});
