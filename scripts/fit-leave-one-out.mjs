// Leave one log out: fits the calibration (fidelity --fit) on every log but one, replays the held-out log with that fit and prints its median / p95 error (docs/fidelity.md). Run after `npm run build`: node scripts/fit-leave-one-out.mjs <logs...>
import { replayFiles, measureFidelity } from '../dist/fidelity/measure.js';
import { fitCalibration } from '../dist/fidelity/fit.js';
const files = process.argv.slice(2);
const pct = (x) => (x * 100).toFixed(2);
const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};
const p95 = (a) => {
  const s = a.map(Math.abs).sort((x, y) => x - y);
  return s[Math.max(0, Math.ceil(0.95 * s.length) - 1)];
};
async function apply(paths, cal) {
  const r = await measureFidelity(paths, { lenient: true, calibration: { claude: { ...cal, perEscape: 3.5 } } });
  return r.files.map((f) => {
    const e = f.compared.map((s) => (s.computed - s.recorded) / s.recorded);
    return [f.file, e.length, pct(median(e)), pct(p95(e))];
  });
}
const measured = await replayFiles(files, { lenient: true });
const all = fitCalibration(measured).claude;
console.log('ALL13', all.factor, all.perToolCall, pct(all.medianAbs), pct(all.p95Abs), all.undetermined ?? '');
for (const row of await apply(files, all)) console.log('APPLY13', row.join(' | '));
for (let i = 0; i < files.length; i++) {
  const f = fitCalibration(measured.filter((_, j) => j !== i)).claude;
  const [row] = await apply([files[i]], f);
  console.log('LOO', row.join(' | '), '| fit', f.factor, f.perToolCall, f.undetermined ?? '');
}
