// CPU milliseconds of probe generation on one log: the log read as a run reads it, then
// `generateProbes` called three times within one run's memos (the first call cold, the third on
// warm code), each timed with process.cpuUsage (docs/performance.md, "Probe generation on the long log"):
//   npm run build && node scripts/time-generate.mjs fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl
import { resolve } from 'node:path';
import { loadTranscript } from '../dist/scenario/load-transcript.js';
import { generateProbes } from '../dist/probes/generate.js';
import { withRunMemos } from '../dist/memo.js';

const [log] = process.argv.slice(2);
if (log === undefined) throw new Error('usage: node scripts/time-generate.mjs <log>');
const transcript = await loadTranscript({ kind: 'file', path: resolve(log), lenient: false }, 1);
await withRunMemos({}, async () => {
  const times = [];
  let probes = 0;
  for (let call = 0; call < 3; call++) {
    const before = process.cpuUsage();
    probes = generateProbes(transcript, {}).length;
    const used = process.cpuUsage(before);
    times.push(Math.round((used.user + used.system) / 1000));
  }
  console.log(`${probes} probes; CPU ms of each call: ${times.join(' ')}`);
});
