import type { Scenario } from '../scenario/types.js';
import type { Probe, Transcript } from '../transcript/types.js';
import type { ProbeSet } from '../probes/probe-set.js';
import type { CorpusFile } from './corpus-files.js';

/** One log of a scenario that names a folder or pattern of logs, with its own probes. */
export interface PreparedLog {
  /** Absolute path of the log. */
  file: string;
  transcript: Transcript;
  probes?: ProbeSet;
  /**
   * Its place among the scenario's logs, when `logs` holds some of them only (a shard's, `run
   * --shard`): what its fault draws and its place in the combined unit follow. Absent: its place in `logs`.
   */
  index?: number;
}

/** A scenario ready to run: resolved, with its transcript and its probes in memory. */
export interface PreparedScenario {
  scenario: Scenario;
  /** The transcript; for a scenario of several logs, the first (its header resolved the scenario). */
  transcript: Transcript;
  /** Inline, side-file and generated probes, resolved against the transcript; none: no recall measured. */
  probes?: ProbeSet;
  /**
   * The probes given (inline or in a side file), before any are generated: what a run's
   * fingerprint hashes (run/journal.ts), so that it is known before the generated ones are made.
   * Absent: none given.
   */
  givenProbes?: readonly Probe[];
  /**
   * A scenario whose `transcript` is a folder or a pattern: every log, in order. Each is replayed
   * through each strategy and the unit's result combines them (run/combine-logs.ts).
   */
  logs?: PreparedLog[];
  /**
   * The scenario's logs in all, when `logs` holds a shard's only (`run --shard i/n` of a corpus:
   * every n-th log, run/shard.ts `takeShardLogs`); a corpus is one by this count, however few logs
   * a shard took.
   */
  corpusLogs?: number;
  /**
   * A corpus of logs one file each (run/corpus-files.ts): every log's file and the SHA-256 of its
   * bytes, in order, whatever `logs` holds: what a result's digest of the corpus is made of
   * (run/scenario-info.ts) and what a shard records of each log for merge.
   */
  corpusFiles?: readonly CorpusFile[];
  /** The LLM judge's rubric, when the scenario asks for the judge and has probes to judge. */
  judgeRubric?: string;
}
