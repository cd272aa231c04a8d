import { fileURLToPath } from 'node:url';
import { createClock } from '../sim/clock.js';
import { QuotaGate } from '../sim/quota.js';
import { prepareContext, isRetained } from '../probes/retention.js';
import { runSuite } from '../engine/run-suite.js';
import { tokenizerStats } from '../tokens/tokenizer.js';
import type { Probe } from '../transcript/types.js';

export interface BenchResult {
  name: string;
  value: number;
  target: number;
  unit: string;
  digits?: number;
  note?: string;
}

interface Benchmark {
  name: string;
  run(): Promise<BenchResult>;
}

const suite = fileURLToPath(new URL('../../scenarios/', import.meta.url));

function seconds(start: number): number {
  return (performance.now() - start) / 1000;
}

/** The bundled suite, every strategy, mocked providers: what `npm start` does. */
const defaultSuite: Benchmark = {
  name: 'default-suite',
  async run() {
    const start = performance.now();
    const result = await runSuite({ scenarios: [suite] });
    const stats = tokenizerStats();
    return {
      name: 'default-suite',
      value: seconds(start),
      target: 60,
      unit: 's',
      digits: 1,
      note: `${result.units.length} runs; ${stats.tokenized} texts tokenized, ${stats.hits} cache hits`,
    };
  },
};

/** A long synthetic session through every strategy: wall time and peak memory. */
const longSession: Benchmark = {
  name: 'long-session-memory',
  async run() {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'ctxbench-bench-'));
    const file = join(dir, 'long.yaml');
    writeFileSync(file, 'name: long\ntranscript:\n  generate: { steps: 1000, seed: 1, toolOutputTokens: 1500 }\nwindow: 128000\nstrategies: [full, rolling-window]\n');
    const before = process.memoryUsage().rss;
    const start = performance.now();
    await runSuite({ scenarios: [file] });
    const rss = process.memoryUsage().rss;
    return { name: 'long-session-memory', value: rss / 2 ** 20, target: 1024, unit: 'MiB', note: `1000 steps × 2 strategies in ${seconds(start).toFixed(1)} s (rss before ${(before / 2 ** 20).toFixed(0)} MiB)` };
  },
};

/** Retention checks: 50 probes at 500 steps over contexts of 100 messages. */
const retention: Benchmark = {
  name: 'retention-500x50',
  async run() {
    const messages = Array.from({ length: 600 }, (_, i) => `message ${i}: ran \`npm test\` in packages/pkg-${i}, port ${10000 + i}, ${'lorem ipsum '.repeat(40)}`);
    const probes: Probe[] = Array.from({ length: 50 }, (_, i) => ({ id: `p${i}`, kind: 'recall', question: 'which port?', expected: { anyOf: [`port ${10000 + i * 10}`] }, evidence: [`m${i * 10}`], ask: ['end'] }));
    const start = performance.now();
    for (let step = 0; step < 500; step++) {
      const context = prepareContext(messages.slice(step, step + 100));
      probes.forEach((probe, i) => isRetained(probe, context, [messages[i * 10] ?? '']));
    }
    return { name: 'retention-500x50', value: seconds(start), target: 3, unit: 's', digits: 2 };
  },
};

/** 10^4 quota admissions on the virtual clock. */
const quota: Benchmark = {
  name: 'quota-10k',
  async run() {
    const clock = createClock();
    const gate = new QuotaGate({ tpm: 50_000, rpm: 100 }, 'openai', clock);
    const start = performance.now();
    let admitted = 0;
    while (admitted < 10_000) {
      const admission = gate.admit({ inputTokens: 700, maxOutputTokens: 100 });
      if (admission.admitted) admitted += 1;
      else clock.advance(admission.retryAfterMs);
      clock.advance(200);
    }
    return { name: 'quota-10k', value: seconds(start) * 1000, target: 500, unit: 'ms', digits: 1 };
  },
};

export const benchmarks: Benchmark[] = [retention, quota, defaultSuite, longSession];
