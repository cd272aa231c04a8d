import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import type { FidelityReport, FormatFidelity } from '../../src/fidelity/types.js';
import { measureFidelity, replayFiles } from '../../src/fidelity/measure.js';
import { fitCalibration } from '../../src/fidelity/fit.js';
import { DEFAULT_CALIBRATION } from '../../src/tokens/calibration.js';

/**
 * The calibration of src/tokens/overhead.ts and src/tokens/calibration.ts, recomputed on the real
 * logs through `recorded` (hidden prefix, re-sent reasoning, the agent's compactions). The bounds
 * are the errors reached (quoted in each test) with a small margin; a change to the counting or
 * the replay that makes them worse fails here.
 */
const CODEX = 'fixtures/real/codex/vibecoding-session.jsonl';
const GEMINI = 'fixtures/real/gemini-cli/vibecoding-session.jsonl';
const CLAUDE = [
  'fixtures/real/claude-code-long/vsla-0a725fb5.jsonl',
  'fixtures/real/claude-code-long/vsla-5f8cbb78.jsonl',
  ...['coverage-test-fix', 'hello-world-script', 'stop-hook-uncommitted-changes', 'vibecoding-session'].map((n) => `fixtures/real/claude-code/${n}.jsonl`),
];
const MINI_SWE = readdirSync('fixtures/real/mini-swe-agent')
  .filter((f) => f.endsWith('.traj.json'))
  .sort()
  .map((f) => `fixtures/real/mini-swe-agent/${f}`);

let report: FidelityReport;

beforeAll(async () => {
  report = await measureFidelity([CODEX, GEMINI, ...CLAUDE, ...MINI_SWE]);
}, 300_000);

function format(name: string): FormatFidelity {
  const found = report.formats.find((f) => f.format === name);
  if (found === undefined) throw new Error(`no ${name} in the report`);
  return found;
}

describe('token-accounting calibration on the real logs', () => {
  it('compares every step with recorded usage of every file', () => {
    expect(report.formats.map((f) => [f.format, f.files, f.steps])).toEqual([
      ['codex', 1, 19],
      ['gemini-cli', 1, 6],
      ['claude-code', 6, 373],
      ['mini-swe-agent', 23, 1019],
    ]);
    expect(report.files.filter((f) => f.calibrated).length).toBe(1 + 6 + 23);
  });

  it('Codex: every step within 0.1 % (reached: 0.02 %); the hidden prefix is ~5.4k tokens', () => {
    const codex = format('codex');
    expect(codex.offset?.medianAbs).toBeLessThan(0.001);
    expect(codex.offset?.p95Abs).toBeLessThan(0.001);
    expect(report.files[0]?.offset).toBeGreaterThan(5_000);
    expect(report.files[0]?.offset).toBeLessThan(6_000);
    expect(codex.raw?.p95).toBeLessThan(-0.2);
  });

  it('Codex: each step adds exactly the framing the derivation in overhead.ts found (18 or 24 tokens)', () => {
    const steps = report.files[0]?.compared ?? [];
    const growth = steps.slice(1).map((s, i) => s.recorded - (steps[i]?.recorded ?? 0) - (s.computed - (steps[i]?.computed ?? 0)));
    expect(growth.filter((g) => g === 0).length).toBeGreaterThanOrEqual(14);
    expect(Math.max(...growth.map(Math.abs))).toBeLessThanOrEqual(2);
  });

  it('Claude Code: median |error| under 2 % (reached 1.55 %), p95 under 4.5 % (reached 3.76 %); raw median |error| 11.7 % with the prefix alone', () => {
    const claude = format('claude-code');
    expect(claude.offset?.medianAbs).toBeLessThan(0.02);
    expect(claude.offset?.p95Abs).toBeLessThan(0.045);
    // 14.8 % before a persistent per-call excess was charged: counted raw, the tool-call framing
    // calibration adds (55 tokens a call) shows as one, and is charged as unlogged (replay/unlogged.ts).
    expect(claude.uncalibrated?.medianAbs).toBeGreaterThan(0.1);
  });

  it('Claude Code: what the agent sent unlogged is found on the long sessions only, at the jumps of the recorded usage', () => {
    const unlogged = report.files.filter((f) => f.format === 'claude-code').map((f) => f.unlogged ?? null);
    // In CLAUDE's order: vsla-0a725fb5 (6.5k after a sed over twelve files it had read), vsla-5f8cbb78, then the four short sessions.
    expect(unlogged).toEqual([{ tokens: 13_061, messages: 4 }, null, null, null, null, { tokens: 4_208, messages: 8 }]);
    expect(report.files.filter((f) => f.format !== 'claude-code').every((f) => f.unlogged === undefined)).toBe(true);
  });

  it('Claude Code: the compaction of vsla-0a725fb5 is followed, and the hidden prefix is 13.5k–19k per session', () => {
    const claudeFiles = report.files.filter((f) => f.format === 'claude-code');
    expect(claudeFiles.map((f) => f.compactions)).toEqual([1, 0, 0, 0, 0, 0]);
    for (const f of claudeFiles) {
      expect(f.offset).toBeGreaterThan(13_500);
      expect(f.offset).toBeLessThan(19_000);
    }
  });

  it('mini-swe-agent (Gemini 3 Pro): median |error| under 2.5 % (reached 2.18 %), p95 under 7 % (reached 6.52 %)', () => {
    const mini = format('mini-swe-agent');
    expect(mini.offset?.medianAbs).toBeLessThan(0.025);
    expect(mini.offset?.p95Abs).toBeLessThan(0.07);
    expect(mini.uncalibrated?.medianAbs).toBeGreaterThan(0.1);
  });

  it('mini-swe-agent (Gemini): the expected hit rate predicts the recorded cached share within 5 points (83.3 % for 83.6 %; upper bound 91.6 % in 2,048-token blocks)', () => {
    const cache = report.cache.find((f) => f.format === 'mini-swe-agent');
    expect(cache?.steps).toBe(1019);
    expect(Math.abs((cache?.predictedShare ?? 0) - (cache?.recordedShare ?? 1))).toBeLessThan(0.05);
    expect((cache?.upperBoundShare ?? 0) - (cache?.recordedShare ?? 0)).toBeGreaterThan(0.05);
    const served = report.files.filter((f) => f.format === 'mini-swe-agent').flatMap((f) => f.compared.map((s) => s.upperBoundCached ?? 0));
    expect(served.every((tokens) => tokens % 2048 === 0)).toBe(true);
  });

  it('Gemini CLI (Gemini 3 Flash): the cached share is predicted within 5 points (25.4 % for 24.2 %; 51.8 % before blocks and tiers)', () => {
    const cache = report.cache.find((f) => f.format === 'gemini-cli');
    expect(Math.abs((cache?.predictedShare ?? 0) - (cache?.recordedShare ?? 1))).toBeLessThan(0.05);
    const steps = report.files.find((f) => f.format === 'gemini-cli')?.compared ?? [];
    // Step 3 (a 41k request) is served four 8,192-token blocks of step 2's 38k request, as recorded (32,637);
    // step 4 is served nothing: the next user message dropped the first turn's reasoning, 13.9k tokens in.
    expect(steps.map((s) => s.upperBoundCached)).toEqual([0, 0, 24_576, 32_768, 0, 0]);
  });

  it('Claude Code: the explicit (Anthropic) cache is predicted exactly as the model bills it, no hit rate applied', () => {
    const cache = report.cache.find((f) => f.format === 'claude-code');
    expect(cache?.models).toEqual(['anthropic: explicit breakpoints, exact']);
    expect(cache?.predictedShare).toBe(cache?.upperBoundShare);
  });

  it('Gemini CLI: median |error| under 2.5 % (reached 2.25 %), p95 under 3.5 % (reached 3.16 %; 6 steps in all)', () => {
    const gemini = format('gemini-cli');
    expect(gemini.offset?.medianAbs).toBeLessThan(0.025);
    expect(gemini.offset?.p95Abs).toBeLessThan(0.035);
  });

  it('Gemini CLI: the reasoning of the first turn is re-sent within it and dropped at the next user message', () => {
    const steps = report.files.find((f) => f.format === 'gemini-cli')?.compared ?? [];
    expect(steps.map((s) => s.reasoning)).toEqual([0, 306, 948, 1180, 0, 0]);
  });
});

describe('fitCalibration', () => {
  it('refits the Claude logs the default was fitted on near it (1.175 × + 80 with the persistent excess charged as replayed; the shipped 1.185 × + 55 is kept)', async () => {
    const fit = fitCalibration(await replayFiles(CLAUDE));
    expect(Object.keys(fit)).toEqual(['claude']);
    // The persistent per-call excess is charged inside the fit as the replay charges it (fit.ts): a
    // session's per-call content no longer goes into the framing. On these 6 sessions, which carry
    // little of it, the refit moves from 1.185 × + 55 (excess held out) to 1.175 × + 80; the
    // shipped default is kept, within the target on every Claude log as replayed (docs/fidelity.md).
    expect(fit.claude?.factor).toBe(1.175);
    expect(fit.claude?.perToolCall).toBe(80);
    expect(fit.claude?.perEscape).toBe(DEFAULT_CALIBRATION.claude?.perEscape);
    expect(fit.claude?.medianAbs).toBeLessThan(0.03);
    expect(fit.claude?.p95Abs).toBeLessThan(0.08);
    expect(fit.claude?.undetermined).toBeUndefined();
    expect(fit.claude?.steps).toBe(373);
  }, 300_000);

  it('says when the logs do not determine the calibration (too few calls past the prefix estimate), and determines one on a log with per-call content', async () => {
    // 4 calls, of which the first 3 set the hidden prefix: any candidate fits (1.04 × + 55 here).
    const short = fitCalibration(await replayFiles(['fixtures/real/claude-code/hello-world-script.jsonl'])).claude;
    expect(short?.undetermined).toMatch(/^1 calls past each segment's first 3/);
    // ~200 tokens a call of per-call content: while the fit held the persistent excess out, the
    // framing took it up and ran to the grid edge (factor 1.40). Charged as replayed, the excess
    // takes it, and the log alone determines a calibration near the 13 logs' (1.16 × + 70).
    const alone = fitCalibration(await replayFiles(['fixtures/real/claude-code-compactions/swordintel-0c45b0a6.jsonl'])).claude;
    expect(alone?.undetermined).toBeUndefined();
    expect([alone?.factor, alone?.perToolCall]).toEqual([1.18, 65]);
  }, 300_000);
});
