/** What a shard's `result.json` says of itself (`RunResult.shard`): its slice of the run's plan and the corpora it took by log. */

/** Which slice of a run's planned units a sharded run (`--shard i/n`) holds. */
export interface ShardInfo {
  /** 1-based shard number, `i` of `i/n`. */
  index: number;
  /** `n` of `i/n`. */
  count: number;
  /** Units in the whole plan (every shard). */
  planned: number;
  /** Plan indices of this shard's units, in the order of `units`. */
  units: number[];
  /**
   * Every unit of the whole plan as `scenario · label (strategy) {options}`: shards of one run
   * have the same plan, which `merge` checks (a shard run with other strategies or `--set` is
   * another run). Absent in shards written before it was recorded; merge refuses those.
   */
  plan?: string[];
  /**
   * The corpora this shard took by log (scenarios of more than `CORPUS_LOGS` logs): each of their
   * units is in every shard, over the shard's logs only; `merge` combines each unit from every
   * shard's logs (the `shard-logs` files beside each shard's result, docs/performance.md). Absent:
   * the run has no corpus.
   */
  corpora?: ShardCorpus[];
}

/** A corpus as a shard took it: every n-th log through every unit of it. */
export interface ShardCorpus {
  /** The corpus's scenario. */
  scenario: string;
  /** Plan indices of the corpus's units (each over this shard's logs here). */
  units: number[];
  /**
   * Every log of the corpus, in order, as the result names it, with the SHA-256 of its file's
   * bytes (`figures: 'taken'`) or else of its transcript as read (header and events, one JSON line
   * each; a corpus with subagent sidechains): shards of one run read the same logs.
   */
  logs: { transcript: string; sha256: string }[];
  /** Places in `logs` of the logs this shard replayed: every `count`-th from `index − 1`. */
  taken: number[];
  /**
   * `taken`: the shard read only the logs it replayed (and hashed the others' files), so the
   * corpus's `steps` and `skippedLines` in the result's `scenarios` count those logs only; `merge`
   * adds them up over the shards (run/merge-scenarios.ts). Absent: they count every log.
   */
  figures?: 'taken';
}
