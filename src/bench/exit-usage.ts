/**
 * Preloaded (`node --import`) into a command the bench measures as users run it (`ctxbench run`,
 * src/bench/corpus.ts): when the process exits, writes its CPU seconds and peak RSS (all its
 * threads: worker threads share the process) as JSON to the file `CTXBENCH_USAGE_FILE` names.
 * Nothing of ctxbench is imported: the command runs exactly as it does without it.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.CTXBENCH_USAGE_FILE;
if (file !== undefined && file !== '') {
  process.on('exit', (code) => {
    const used = process.cpuUsage();
    writeFileSync(file, `${JSON.stringify({ code, cpuSeconds: (used.user + used.system) / 1e6, maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`);
  });
}
