#!/usr/bin/env node
/**
 * `npm run bench`: the speed and memory targets of ctxbench, measured on this machine and
 * compared with their targets. Exit 1 when a target is missed. Unit tests never time anything.
 */
import { fileURLToPath } from 'node:url';
import { benchmarks, type BenchResult } from './cases.js';

async function main(): Promise<number> {
  const only = process.argv.slice(2);
  const results: BenchResult[] = [];
  for (const bench of benchmarks) {
    if (only.length > 0 && !only.includes(bench.name)) continue;
    process.stderr.write(`running ${bench.name}…\n`);
    results.push(await bench.run());
  }
  const width = Math.max(...results.map((r) => r.name.length));
  for (const r of results) {
    const verdict = r.value <= r.target ? 'ok  ' : 'MISS';
    process.stdout.write(`${verdict} ${r.name.padEnd(width)}  ${r.value.toFixed(r.digits ?? 0).padStart(9)} ${r.unit.padEnd(4)} (target ≤ ${r.target} ${r.unit})  ${r.note ?? ''}\n`);
  }
  return results.every((r) => r.value <= r.target) ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then((code) => {
    process.exitCode = code;
  });
}
