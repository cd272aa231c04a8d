import type { LikeFit, LogLevels } from './fit-types.js';
import { COPY_PLACES, SOURCE_ROLES, TOOL_SHAPES } from './fit-types.js';
import type { LogObservation } from './observe.js';
import { quantilesOf, round3, sharesOf, twoLevelsOf } from './draw.js';

/** The six most used tool names keep their own share; the rest are pooled as `other`. */
const NAMED_TOOLS = 6;

/**
 * Pools the observations of a set of logs into the fit `generate --like` draws sessions from
 * (fit-types.ts). Pure: the same logs in the same order give the same fit.
 */
export function fitLogs(logs: readonly LogObservation[]): LikeFit {
  const all = <T>(pick: (log: LogObservation) => readonly T[]): T[] => logs.flatMap(pick);
  const uses = all((l) => l.uses);
  const completing = logs.filter((l) => l.taskStretches.spans.length > 0);
  const useSteps = logs.reduce((sum, l) => sum + l.useSteps, 0);
  const steps = logs.reduce((sum, l) => sum + l.steps, 0);
  const assistantCount = logs.reduce((sum, l) => sum + l.steps, 0);
  const models = sharesOf(all((l) => (l.model !== undefined ? [l.model] : [])));
  const model = Object.keys(models)[0];
  return {
    about: 'ctxbench generate --like: what was learned from the logs (docs/scenarios.md#sessions-like-yours)',
    logs: logs.length,
    formats: sharesOf(logs.map((l) => l.format)),
    dialect: (Object.keys(sharesOf(logs.map((l) => l.dialect)))[0] ?? 'openai') as LikeFit['dialect'],
    ...(model !== undefined ? { model } : {}),
    toolsAsText: assistantCount === 0 ? 0 : round3(logs.reduce((sum, l) => sum + l.asText, 0) / assistantCount),
    steps: quantilesOf(logs.map((l) => l.steps)),
    perLog: logs.map(levelsOf),
    hiddenTokens: quantilesOf(all((l) => (l.hiddenTokens !== undefined ? [l.hiddenTokens] : []))),
    systemTokens: quantilesOf(logs.map((l) => l.systemTokens)),
    task: {
      steps: twoLevelsOf(logs.map((l) => l.stepsPerTask)),
      firstTokens: quantilesOf(all((l) => l.userTokens.slice(0, 1))),
      userTokens: quantilesOf(all((l) => l.userTokens.slice(1))),
      perStep: steps === 0 ? 0 : round3(logs.reduce((sum, l) => sum + l.taskSources.length, 0) / steps),
      source: sharesOf(all((l) => l.taskSources)),
      none: shareOf(logs, (l) => l.taskStretches.spans.length === 0),
      lead: quantilesOf(completing.map((l) => shareOfSteps(l.taskStretches.lead, l))),
      spans: quantilesOf(all((l) => l.taskStretches.spans)),
      gaps: quantilesOf(all((l) => l.taskStretches.gaps)),
      tail: quantilesOf(completing.map((l) => shareOfSteps(l.taskStretches.tail, l))),
    },
    assistant: {
      textTokens: twoLevelsOf(logs.map((l) => l.textTokens)),
      thinkingTokens: quantilesOf(all((l) => l.thinkingTokens)),
      reasoningTokens: quantilesOf(all((l) => l.reasoningTokens)),
      callTokens: quantilesOf(all((l) => l.callTokens)),
      calls: sharesOf(all((l) => l.callsPerStep).map((n) => (n >= 3 ? '3+' : String(n)))),
      tools: namedShares(all((l) => l.toolNames)),
    },
    toolOutput: {
      tokens: twoLevelsOf(logs.map((l) => l.toolTokens)),
      shapes: sharesOf(all((l) => l.toolShapes).filter((s) => TOOL_SHAPES.includes(s))),
      phases: phasesOf(logs.map((l) => l.toolPhases)),
      unloggedTokens: twoLevelsOf(logs.map((l) => l.unloggedTokens)),
    },
    needed: {
      usesPerStep: useSteps === 0 ? 0 : round3(uses.length / useSteps),
      distance: quantilesOf(uses.map((u) => u.distance)),
      sourceRole: sharesOf(uses.map((u) => u.sourceRole)),
      kind: sharesOf(uses.map((u) => u.kind)),
      inCall: shareOf(
        uses.filter((u) => u.sourceRole === 'assistant'),
        (u) => u.inCall,
      ),
      position: quantilesOf(uses.filter((u) => !(u.sourceRole === 'assistant' && u.inCall)).map((u) => u.position)),
      earlierCopy: Object.fromEntries(
        SOURCE_ROLES.map((role) => {
          const of = uses.filter((u) => u.sourceRole === role);
          return [role, Object.fromEntries(COPY_PLACES.map((place) => [place, shareOf(of, (u) => u.earlier.includes(place))]))];
        }),
      ) as LikeFit['needed']['earlierCopy'],
    },
    compaction: {
      perStep: steps === 0 ? 0 : round3(logs.reduce((sum, l) => sum + l.compactions, 0) / steps),
      summaryTokens: quantilesOf(all((l) => l.summaryTokens)),
    },
  };
}

/** A log's own levels (fit-types.ts, `LogLevels`). */
function levelsOf(log: LogObservation): LogLevels {
  return {
    steps: log.steps,
    ...(log.hiddenTokens !== undefined ? { hiddenTokens: log.hiddenTokens } : {}),
    requestSteps: round3(meanOf(log.stepsPerTask)),
    textTokens: round3(meanOf(log.textTokens)),
    toolTokens: round3(meanOf(log.toolTokens)),
    unloggedTokens: round3(meanOf(log.unloggedTokens)),
    unloggedGrowth: log.unloggedGrowth,
  };
}

/** Per phase, the mean over the logs that have phases of their weight, scaled so that the phases average 1 (empty when no log has them). */
function phasesOf(perLog: readonly (readonly number[])[]): number[] {
  const logs = perLog.filter((p) => p.length > 0);
  const means = (logs[0] ?? []).map((_, phase) => meanOf(logs.map((p) => p[phase] ?? 0)));
  const average = meanOf(means);
  return average === 0 ? [] : means.map((m) => round3(m / average));
}

function meanOf(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Steps of a log as a share of its steps (0 for a log of none). */
function shareOfSteps(steps: number, log: LogObservation): number {
  return log.steps === 0 ? 0 : round3(steps / log.steps);
}

/** The share of the items that pass, to 3 digits (0 of none). */
function shareOf<T>(items: readonly T[], test: (item: T) => boolean): number {
  return items.length === 0 ? 0 : round3(items.filter(test).length / items.length);
}

function namedShares(names: readonly string[]): Record<string, number> {
  const shares = Object.entries(sharesOf(names));
  const named = Object.fromEntries(shares.slice(0, NAMED_TOOLS));
  const rest = shares.slice(NAMED_TOOLS).reduce((sum, [, share]) => sum + share, 0);
  return rest > 0 ? { ...named, other: round3(rest) } : named;
}
