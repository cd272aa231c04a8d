// CPU milliseconds of the secret scan (`findSecrets`) over every line of the given files cut into
// 300-character texts, each text distinct, and a hash of every span found (two builds must print
// the same hash):
//   npm run build && node scripts/time-secrets.mjs $(find fixtures/real -name '*.json*')
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { findSecrets } from '../dist/redact/index.js';
import { withRunMemos } from '../dist/memo.js';

const files = process.argv.slice(2);
if (files.length === 0) throw new Error('usage: node scripts/time-secrets.mjs <file...>');
const texts = [];
for (const file of files) {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    for (let at = 0; at < line.length; at += 300) texts.push(`${line.slice(at, at + 300)}${at}`);
  }
}
const spans = [];
const before = process.cpuUsage();
withRunMemos({}, () => {
  for (const text of texts) spans.push(JSON.stringify(findSecrets(text)));
});
const used = process.cpuUsage(before);
const hash = createHash('sha1').update(spans.join('\n')).digest('hex');
process.stdout.write(`${texts.length} texts, spans ${hash}, ${Math.round((used.user + used.system) / 1000)} ms CPU\n`);
