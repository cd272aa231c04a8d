import type { Command } from 'commander';
import { basename, extname, resolve } from 'node:path';
import { GateError, UsageError } from '../../errors.js';
import type { ExternalStrategySource, StrategySpec } from '../../scenario/types.js';
import { addDeprecatedOption, addExamples, parsePositiveInt, parseStrategyTimeout, STRATEGY_TIMEOUT_FLAG, STRATEGY_TIMEOUT_HELP } from '../options.js';
import { loadStrategyModules } from '../../strategies/external/module-loader.js';
import { checkConformance, conformanceSession, CONFORMANCE_WINDOW, type Violation } from '../../replay/conformance.js';
import { resolveStrategy } from '../../replay/resolve-strategy.js';
import { DEFAULT_STRATEGY_TIMEOUT_MS } from '../../strategies/external/bounded.js';

interface VerifyFlags {
  options?: Record<string, unknown>;
  timeoutMs?: number;
  strategyTimeout?: number;
}

const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);
/** Violations printed in full; the rest are counted. */
const SHOWN = 20;

export function register(program: Command): void {
  const command = program
    .command('verify')
    .description('check a strategy of your own against the invariants every built-in keeps (exit 1 when one breaks)')
    .argument('<target...>', 'a strategy module (.js, .mjs), or after -- the command of a policy process (docs/process-protocol.md)')
    .option('--options <json>', "the strategy's options as a JSON object (default: its defaults)", parseOptionsFlag)
    .option(STRATEGY_TIMEOUT_FLAG, STRATEGY_TIMEOUT_HELP.replace("the scenario's timeoutMs, else ", ''), parseStrategyTimeout);
  addDeprecatedOption(command, '--timeout-ms <ms>', '--strategy-timeout <seconds>', parsePositiveInt('--timeout-ms'));
  addExamples(command, [
    ['ctxbench verify examples/js-policy/masking.mjs', 'a JS strategy module with its default options'],
    ['ctxbench verify --options \'{"keepLast":5}\' -- python3 examples/python-policy/masking.py', 'a policy process, with options'],
  ]);
  command.action(verifyCommand);
}

async function verifyCommand(target: string[], flags: VerifyFlags): Promise<void> {
  const spec = specOf(target, flags);
  await loadStrategyModules([spec.spec], spec.file);
  const { strategy, options } = resolveStrategy(spec.spec, spec.file);
  const label = spec.spec.source.kind === 'module' ? strategy.name : spec.spec.label;
  const session = conformanceSession();
  const violations = await checkConformance(strategy, options, session);
  const steps = session.events.filter((e) => e.type === 'message' && e.role === 'assistant').length;
  if (violations.length === 0) {
    process.stdout.write(
      `verify ${label}: pass: every invariant held over ${steps} steps (conformance session, window ${CONFORMANCE_WINDOW} tokens, options ${JSON.stringify(options)})\n`,
    );
    return;
  }
  const refused = violations.find((v) => v.isOptionsError === true);
  if (refused !== undefined) throw new UsageError(`verify ${label}: ${refused.message.replace(/^step \d+: the strategy failed: /, '')}`);
  process.stdout.write(renderViolations(label, violations));
  throw new GateError(`verify ${label}: ${violations.length} invariant violation${violations.length === 1 ? '' : 's'}`);
}

/** A module when the target is one .js/.mjs/.cjs path; anything else is a command to start. */
function specOf(target: string[], flags: VerifyFlags): { file: string; spec: StrategySpec & { source: ExternalStrategySource } } {
  const options = flags.options ?? {};
  const timeoutMs = flags.strategyTimeout ?? flags.timeoutMs ?? DEFAULT_STRATEGY_TIMEOUT_MS;
  const [first] = target;
  if (first === undefined) throw new UsageError('verify needs a strategy module or, after --, a command');
  if (target.length === 1 && MODULE_EXTENSIONS.has(extname(first))) {
    const path = resolve(first);
    const name = basename(path, extname(path));
    return { file: path, spec: { label: name, strategy: name, options, source: { kind: 'module' as const, path, timeoutMs } } };
  }
  return {
    file: '<command line>',
    spec: {
      label: target.join(' '),
      strategy: 'command',
      options,
      source: { kind: 'command' as const, argv: target, cwd: process.cwd(), timeoutMs },
    },
  };
}

/**
 * One line per distinct problem (the same messages breaking the same invariant), at its first
 * step, with how many later steps repeat it: a dropped result is reported once, not once a step.
 */
function renderViolations(label: string, violations: readonly Violation[]): string {
  const distinct = new Map<string, { first: Violation; repeats: number }>();
  for (const v of violations) {
    const key = v.ids.length > 0 ? `${v.invariant}\u0000${v.ids.join(',')}` : `${v.invariant}\u0000${v.message}`;
    const seen = distinct.get(key);
    if (seen === undefined) distinct.set(key, { first: v, repeats: 0 });
    else seen.repeats += 1;
  }
  const lines = [
    `verify ${label}: FAIL: ${distinct.size} problem${distinct.size === 1 ? '' : 's'} (${violations.length} violation${violations.length === 1 ? '' : 's'} over all steps)`,
  ];
  for (const { first, repeats } of [...distinct.values()].slice(0, SHOWN)) {
    const ids = first.ids.length > 0 ? `  [ids: ${first.ids.join(', ')}]` : '';
    lines.push(`  ${first.invariant.padEnd(18)} ${first.message}${ids}${repeats > 0 ? ` (and at ${repeats} later step${repeats === 1 ? '' : 's'})` : ''}`);
  }
  if (distinct.size > SHOWN) lines.push(`  … and ${distinct.size - SHOWN} more`);
  return `${lines.join('\n')}\n`;
}

function parseOptionsFlag(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new UsageError(`--options expects a JSON object, got ${JSON.stringify(value)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError(`--options expects a JSON object, got ${JSON.stringify(value)}`);
  return parsed as Record<string, unknown>;
}
