import { meanOf, type CheckResult, type ResampledRank } from './check.js';

/** What `generate --like --check` prints: each strategy's figures (G the mean over the seeds), then the Spearman figures per seed, their mean and spread, and the G column's own (pooled over the seeds) against B and A. */
export function renderCheck(result: CheckResult): string {
  const cell = (v: number | null): string => (v === null ? '–' : v.toFixed(3));
  const resampled = (r: ResampledRank | null): string =>
    r === null
      ? ''
      : `\n  over the seeds resampled: vs real B ${cell(r.low)} to ${cell(r.high)} (5th to 95th percentile)` +
        (r.withinLine === null ? '' : `, within the line in ${(r.withinLine * 100).toFixed(0)} % of resamples`);
  const seeds = result.seeds.join(' / ');
  const agreement = (name: string, s: CheckResult['saving']): string =>
    `Spearman, ${name} real A vs real B ${cell(s.realAvsB)}; generated-like-A vs real B, seed ${seeds}: ${s.generatedVsBPerSeed.map(cell).join(' / ')}` +
    (result.seeds.length === 1 ? '' : `, mean ${cell(s.generatedVsB)} (${cell(s.generatedVsBMin)} to ${cell(s.generatedVsBMax)})`) +
    `\n  pooled over seeds (the G column): generated-like-A vs real B ${cell(s.pooledVsB)}, vs real A ${cell(s.pooledVsA)}` +
    resampled(s.pooledVsBResampled);
  const lines = [
    `window ${result.window.toLocaleString('en-US')} tokens, mocked providers; saving vs full and needed recall per set (A = the fitted logs, B = unseen, G = generated like A${result.seeds.length === 1 ? '' : `, mean over seeds ${seeds}`}):`,
    'strategy                      saving A  saving B  saving G  needed A  needed B  needed G',
    ...result.rows.map(
      (r) =>
        `${r.strategy.padEnd(28)}  ${[r.saving.realA, r.saving.realB, meanOf(r.saving.generated), r.neededRecall.realA, r.neededRecall.realB, meanOf(r.neededRecall.generated)].map((v) => cell(v).padStart(8)).join('  ')}`,
    ),
    agreement('saving:       ', result.saving),
    agreement('needed recall:', result.neededRecall),
  ];
  return `${lines.join('\n')}\n`;
}
