import type { Command } from 'commander';
import { extname, resolve } from 'node:path';
import { GateError, UsageError } from '../../errors.js';
import type { ExternalStrategySource, StrategySpec } from '../../scenario/types.js';
import { parsePositiveInt } from '../options.js';
import { loadStrategyModules } from '../../strategies/external/module-loader.js';
import { checkConformance, conformanceSession, CONFORMANCE_WINDOW, type Violation } from '../../strategies/conformance.js';
import { resolveStrategy } from '../../engine/resolve-strategy.js';
import { DEFAULT_POLICY_TIMEOUT_MS } from '../../scenario/external-spec.js';

interface VerifyFlags {
  options?: Record<string, unknown>;
  timeoutMs: number;
}

const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs']);
/** Violations printed in full; the rest are counted. */
const SHOWN = 20;

export function register(program: Command): void {
  program
    .command('verify')
    .description("check a strategy of your own against the invariants every built-in keeps (exit 1 when one breaks)")
    .argument('<target...>', 'a strategy module (.js, .mjs), or after -- the command of a policy process (docs/process-protocol.md)')
    .option('--options <json>', 'the strategy\'s options as a JSON object (default: its defaults)', parseOptionsFlag)
    .option('--timeout-ms <ms>', 'policy process: how long to wait for each answer', parsePositiveInt('--timeout-ms'), DEFAULT_POLICY_TIMEOUT_MS)
    .addHelpText('after', '\nExamples:\n  ctxbench verify examples/js-policy/masking.mjs\n  ctxbench verify --options \'{"keepLast":5}\' -- python3 examples/python-policy/masking.py\n')
    .action(verifyCommand);
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
    process.stdout.write(`verify ${label}: pass: every invariant held over ${steps} steps (conformance session, window ${CONFORMANCE_WINDOW} tokens, options ${JSON.stringify(options)})\n`);
    return;
  }
  process.stdout.write(renderViolations(label, violations));
  throw new GateError(`verify ${label}: ${violations.length} invariant violation${violations.length === 1 ? '' : 's'}`);
}

/** A module when the target is one .js/.mjs/.cjs path; anything else is a command to start. */
function specOf(target: string[], flags: VerifyFlags): { file: string; spec: StrategySpec & { source: ExternalStrategySource } } {
  const options = flags.options ?? {};
  const [first] = target;
  if (first === undefined) throw new UsageError('verify needs a strategy module or, after --, a command');
  if (target.length === 1 && MODULE_EXTENSIONS.has(extname(first))) {
    const path = resolve(first);
    return { file: path, spec: { label: 'module', strategy: 'module', options, source: { kind: 'module' as const, path } } };
  }
  return { file: '<command line>', spec: { label: target.join(' '), strategy: 'command', options, source: { kind: 'command' as const, argv: target, cwd: process.cwd(), timeoutMs: flags.timeoutMs } } };
}

function renderViolations(label: string, violations: readonly Violation[]): string {
  const lines = [`verify ${label}: FAIL: ${violations.length} violation${violations.length === 1 ? '' : 's'}`];
  for (const v of violations.slice(0, SHOWN)) lines.push(`  ${v.invariant.padEnd(18)} ${v.message}${v.ids.length > 0 ? `  [ids: ${v.ids.join(', ')}]` : ''}`);
  if (violations.length > SHOWN) lines.push(`  … and ${violations.length - SHOWN} more`);
  return `${lines.join('\n')}\n`;
}

function parseOptionsFlag(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new UsageError(`--options expects a JSON object, got ${JSON.stringify(value)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`--options expects a JSON object, got ${JSON.stringify(value)}`);
  return parsed as Record<string, unknown>;
}
