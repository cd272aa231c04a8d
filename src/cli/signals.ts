/**
 * SIGINT / SIGTERM during a run: the first asks the run to stop (no new unit starts; the finished
 * ones are kept, reported as partial, and stay journaled for --resume); a second one quits at once
 * (the journal still holds every finished unit).
 */
export type StopSignal = 'SIGINT' | 'SIGTERM';

export interface SignalTrap {
  signal: AbortSignal;
  /** The signal that stopped the run, if one did. */
  stoppedBy(): StopSignal | undefined;
  dispose(): void;
}

const EXIT_CODES: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };

export function trapStopSignals(onFirst: (signal: StopSignal) => void): SignalTrap {
  const controller = new AbortController();
  let stopped: StopSignal | undefined;
  const handler = (signal: StopSignal): void => {
    if (stopped !== undefined) process.exit(EXIT_CODES[signal]);
    stopped = signal;
    onFirst(signal);
    controller.abort(signal);
  };
  const onInt = (): void => handler('SIGINT');
  const onTerm = (): void => handler('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    signal: controller.signal,
    stoppedBy: () => stopped,
    dispose: () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}
