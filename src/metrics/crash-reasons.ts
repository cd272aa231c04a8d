import type { FailureKind } from '../contracts/provider.js';
import type { UnitResult } from './types.js';

/**
 * Crash kinds that are the strategy's fault, not the provider's or the window's: a strategy that
 * threw or returned no message list, one that ran past its time limit, and a context the provider
 * refuses for its shape. A run with one of them exits 1 (DESIGN.md §9).
 */
const STRATEGY_ERRORS: ReadonlySet<FailureKind> = new Set(['strategy', 'strategy-timeout', 'invalid-request']);

/**
 * Crash kinds that are the provider's doing and say nothing about the strategy: a 5xx or a
 * malformed answer (`server`), a 429 still so after the retries or asking for a wait past
 * `--max-retry-wait` (`rate-limit`), no answer or no connection (`network`), and an answer the
 * provider's filter or output limit left empty (`empty-answer`). A live run whose every unit ended
 * on one of them measured nothing: it exits 1 (`deadProviderReasons`).
 */
const PROVIDER_FAULTS: ReadonlySet<FailureKind> = new Set(['server', 'rate-limit', 'network', 'empty-answer']);

function isStrategyError(kind: FailureKind | null): boolean {
  return kind !== null && STRATEGY_ERRORS.has(kind);
}

/** Why a unit crashed, in words. */
export interface CrashReason {
  scenario: string;
  strategy: string;
  kind: FailureKind;
  step: number;
  /** `strategy: prepare() returned null at step 4`, `invalid-request: <the provider's message> at step 7`. */
  text: string;
}

/** The longest crash message a reason quotes (a provider's message can list hundreds of call ids). */
const MESSAGE_LIMIT = 300;

/** The reason of every unit that crashed for a strategy error, in unit order (the first crash of each). */
export function strategyCrashReasons(units: readonly UnitResult[]): CrashReason[] {
  return units.flatMap((unit) => {
    if (!isStrategyError(unit.summary.crash_kind)) return [];
    const crash = unit.events.find((event) => event.type === 'crash' && isStrategyError(event.kind));
    if (crash?.type !== 'crash') return [];
    return [{ scenario: unit.scenario, strategy: unit.strategy, kind: crash.kind, step: crash.step, text: reasonText(crash.kind, crash.message, crash.step) }];
  });
}

/**
 * The reason of every unit a provider fault ended after the provider had answered before: a 200
 * whose body is no completion (`malformed`), or no answer within `--request-timeout`
 * (`timedOut`), still so after the retries. Unlike an overflow or a 429 these measure nothing about
 * the strategy, so a run with one exits 1 (DESIGN.md §9); one before any usable answer exits 2
 * before `--out` is touched.
 */
export function providerFaultReasons(units: readonly UnitResult[]): CrashReason[] {
  return units.flatMap((unit) => {
    const crash = unit.events.find((event) => event.type === 'crash');
    if (crash?.type !== 'crash' || (crash.kind !== 'server' && crash.kind !== 'network')) return [];
    const fault = unit.events.findLast(
      (event) => event.type === 'failure' && event.step === crash.step && ('malformed' in event.failure || 'timedOut' in event.failure),
    );
    if (fault === undefined) return [];
    return [{ scenario: unit.scenario, strategy: unit.strategy, kind: crash.kind, step: crash.step, text: reasonText(crash.kind, crash.message, crash.step) }];
  });
}

/**
 * The reason of every unit, when every unit of the run crashed for a provider fault
 * (`PROVIDER_FAULTS`); none when one unit finished, or crashed for anything else (an overflow is
 * a strategy's measured outcome). A run against a provider that answers 500 to everything, or
 * rate-limits without end, must not pass CI.
 */
export function deadProviderReasons(units: readonly UnitResult[]): CrashReason[] {
  const faulted = units.every((unit) => unit.summary.crashed && unit.summary.crash_kind !== null && PROVIDER_FAULTS.has(unit.summary.crash_kind));
  if (units.length === 0 || !faulted) return [];
  return units.map((unit) => {
    const kind = unit.summary.crash_kind as FailureKind;
    const step = unit.summary.crash_step ?? 0;
    // A corpus's units come back summary-only: their crash is told by its kind and step alone.
    const crash = unit.events.find((event) => event.type === 'crash');
    const message = crash?.type === 'crash' ? crash.message : 'crashed';
    return { scenario: unit.scenario, strategy: unit.strategy, kind, step, text: reasonText(kind, message, step) };
  });
}

function reasonText(kind: FailureKind, message: string, step: number): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  const quoted = flat.length > MESSAGE_LIMIT ? `${flat.slice(0, MESSAGE_LIMIT)}…` : flat;
  // A hook's own message already names its step (`prepare() returned null at step 4`).
  return / at step \d+$/.test(quoted) ? `${kind}: ${quoted}` : `${kind}: ${quoted} at step ${step}`;
}
