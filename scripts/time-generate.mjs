// CPU milliseconds of probe generation on one log: the log read as a run reads it, then
// `generateProbes` called three times within one run's memos (the first call cold, the third on
// warm code), each timed with process.cpuUsage (docs/performance.md, "Probe generation on the long log");
// with --fresh-memos each call in a memo store of its own (the second and third on warm code with
// cold memos: docs/performance.md, "The long log's cold run, its own code"):
//   npm run build && node scripts/time-generate.mjs [--fresh-memos] fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl
import { resolve } from 'node:path';
import { loadTranscript } from '../dist/scenario/load-transcript.js';
import { generateProbes } from '../dist/probes/generate.js';
import { withRunMemos } from '../dist/memo.js';

const args = process.argv.slice(2);
const fresh = args.includes('--fresh-memos');
const [log] = args.filter((arg) => arg !== '--fresh-memos');
if (log === undefined) throw new Error('usage: node scripts/time-generate.mjs [--fresh-memos] <log>');
const transcript = await loadTranscript({ kind: 'file', path: resolve(log), lenient: false }, 1);
const times = [];
let probes = 0;
const timeOne = () => {
  const before = process.cpuUsage();
  probes = generateProbes(transcript, {}).length;
  const used = process.cpuUsage(before);
  times.push(Math.round((used.user + used.system) / 1000));
};
if (fresh) for (let call = 0; call < 3; call++) withRunMemos({}, timeOne);
else withRunMemos({}, () => [0, 1, 2].forEach(timeOne));
console.log(`${probes} probes; CPU ms of each call: ${times.join(' ')}`);
