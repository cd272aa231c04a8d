import { describe, expect, it } from 'vitest';
import { importTranscript } from '../../src/transcript/importers/index.js';
import { resolveLogSettings, type TranscriptFacts } from '../../src/scenario/log-settings.js';
import { scenarioFileSchema } from '../../src/scenario/schema.js';
import { describeAdHocScenarios } from '../../src/cli/ad-hoc-note.js';
import type { MessageEvent } from '../../src/transcript/types.js';

/** Settings taken from the log itself (issue 29): provider format, model (and so prices and cache rules), window. */
const data = scenarioFileSchema.parse({ name: 's', transcript: 'x.jsonl' });
const settingsOf = (facts: TranscriptFacts) => resolveLogSettings(data, facts, {});
const logOf = async (file: string): Promise<TranscriptFacts> => importTranscript(file);

const OPUS = 'fixtures/real/claude-code/hello-world-script.jsonl';

describe('settings from the log', () => {
  it('a Claude Code log (Opus 4.5): the Claude model, 200k from the model table, openai wire format said to be that', async () => {
    const s = settingsOf(await logOf(OPUS));
    expect([s.provider.value, s.model.value, s.window.value]).toEqual(['openai', 'claude-opus-4-5-20251101', 200_000]);
    expect(s.provider.from).toMatch(/Claude.*priced and cached as Anthropic/);
    expect(s.window.from).toMatch(/docs\.anthropic\.com.*as of 2025-11/);
  });

  it('Claude: the 1M beta when the log records a prompt past 200k, or the model name asks for it', async () => {
    const log = await logOf(OPUS);
    const big: MessageEvent = { type: 'message', id: 'x', role: 'assistant', text: '', usage: { input: 250_000 } };
    const s = settingsOf({ header: log.header, events: [...log.events, big] });
    expect(s.window.value).toBe(1_000_000);
    expect(s.window.from).toMatch(/250,000 tokens, past Claude's 200k/);
    expect(settingsOf({ header: { ...log.header, model: 'claude-sonnet-4-5-20250929[1m]' }, events: [] }).window.value).toBe(1_000_000);
  });

  it.each([
    ['gpt-4.1-2025-04-14', 1_047_576],
    ['gpt-5-codex', 272_000],
    ['gpt-4o-2024-08-06', 128_000],
    ['google/gemini-3-pro-preview', 1_048_576],
  ])('%s: its own window from the table', (model, window) => {
    expect(settingsOf({ header: { type: 'session', id: 'x', dialect: 'openai', model }, events: [] }).window.value).toBe(window);
  });

  it("a log's own window (Codex records 95 % of GPT-5's 272k) wins over the table", async () => {
    const s = settingsOf(await logOf('fixtures/real/codex-patches/moonmind-019a7fa9.jsonl'));
    expect([s.model.value, s.window.value, s.window.from]).toEqual(['gpt-5-codex', 258_400, "the log header's"]);
  });

  it('an older SWE-agent trajectory: the model whose list prices give the cost its model_stats recorded', async () => {
    const s = settingsOf(await logOf('fixtures/transcript/import/swe-agent-0.x-thought-action.traj'));
    expect([s.model.value, s.window.value]).toEqual(['gpt-4-turbo', 128_000]);
    expect(s.model.from).toMatch(/recorded cost \(\$0\.23265 for 21,354 tokens in, 637 out\)/);
  });

  it('the command line and the scenario file win, and say so', async () => {
    const log = await logOf(OPUS);
    const s = resolveLogSettings(scenarioFileSchema.parse({ name: 's', transcript: 'x', model: 'gpt-4.1' }), log, { window: 50_000 });
    expect([s.model.value, s.model.from, s.window.value, s.window.from]).toEqual(['gpt-4.1', "the scenario's", 50_000, 'from --window']);
  });
});

describe('the ad-hoc scenario run prints for a log', () => {
  it('says where provider, model, window, prices and the prompt cache model come from', async () => {
    const note = await describeAdHocScenarios([OPUS], {}, []);
    expect(note).toMatch(/^provider: openai {5}# .*Claude/m);
    expect(note).toMatch(/^model: claude-opus-4-5-20251101 {5}# the log's$/m);
    expect(note).toMatch(/^window: 200000 {5}# the model table/m);
    expect(note).toMatch(/^# prices: \$5 in · \$0\.5 cached · cache write \$6\.25 · \$25 out per million tokens/m);
    expect(note).toMatch(/^promptCache: expected {5}# anthropic: explicit breakpoints, exact/m);
  });
});
