import { describe, expect, it, vi } from 'vitest';
import { createRandom, type Random } from '../../src/random.js';
import { gatherMaterial, type MaterialItem, type MaterialKind } from '../../src/simulator/summary-material.js';
import { chooseSpecifics, paraphraseSpecifics, type ChosenSpecifics } from '../../src/simulator/summary-specifics.js';
import { callArgumentText, findSpecifics, SPECIFIC_KINDS, type SpecificKind } from '../../src/simulator/specific-kinds.js';
import { summarizeMessages, type SummaryOptions } from '../../src/simulator/summarizer.js';
import { tokenFloor } from '../../src/simulator/token-floor.js';
import { HANDOFF_PROMPT } from '../../src/strategies/codex-rebuild.js';
import { MAP_PROMPT } from '../../src/strategies/gatekeeper.js';
import { STRUCTURED_SUMMARY_PROMPT } from '../../src/strategies/reactive-compress.js';
import { RECAP_PROMPT } from '../../src/strategies/tri-modal.js';
import { createTokenizer } from '../../src/tokens/tokenizer.js';
import type { ContextMessage, ToolCall } from '../../src/transcript/types.js';
import type { MessageDraft } from '../../src/transcript/draft.js';
import { FITTED } from '../../src/simulator/summary-fit.js';

/**
 * The summarizer reads each message, text and line once (per message object, per text, per line)
 * and keeps the latest paraphrase of each sentence while the choice of specifics answers it the
 * same, and it passes over a line whose token floor does not fit without counting it. These tests
 * hold what it writes equal to the straightforward computation: the reading as it was written
 * before the memos (below, whole texts every time), and the same summarizer with cold memos (a
 * fresh module) counting every line, over requests that re-send messages as the same objects, as
 * copies, at other positions, and as one rendered span.
 */

// ---- The reading before the memos, verbatim: whole texts, every time. ----

const DECISION = /\b(?:decided|decide|decision|will use|we'll use|going with|chose|choose|because|instead of|agreed|plan is)\b/i;
const CONSTRAINT = /\b(?:must|never|don't|do not|should|only|without|make sure|avoid|keep)\b/i;
const PROBLEM = /\b(?:error|errors|failed|failure|failing|fails|exception|traceback|panic|fatal|cannot|can't|missing|undefined|not found)\b/i;
const NEXT = /\b(?:next|then|remaining|todo|still|will|going to|need to|needs to|let me|i'll)\b/i;
const FILLER =
  /^(?:(?:now|ok(?:ay)?|great|perfect|good|excellent|alright|so)[,!.]?\s+)*(?:let me|i'll|i will|i need to|i'm going to|i am going to|we need to)\s+/i;

function sentencesOf(text: string): string[] {
  return text
    .split(/\r?\n|(?<=[.!?])\s+/)
    .map((s) => s.replace(/^[\s#>*\-•\d.)]+/, '').trim())
    .filter((s) => /\p{L}{3,}/u.test(s) && !s.startsWith('```'));
}

function restate(sentence: string): string {
  const plain = sentence.replace(FILLER, '').replace(/\s+/g, ' ').trim();
  const words = plain.split(' ');
  const cut = words.length > 24 ? `${words.slice(0, 24).join(' ')} …` : plain;
  return cut.charAt(0).toUpperCase() + cut.slice(1);
}

function describeCall(name: string, args: Record<string, unknown>): string {
  const command = args.command ?? args.cmd;
  if (typeof command === 'string') return `Ran ${command.split(/\s+/).slice(0, 8).join(' ')}`;
  const target = ['file_path', 'path', 'filePath', 'pattern', 'query', 'url'].map((key) => args[key]).find((v): v is string => typeof v === 'string');
  const verb = /edit|write|create|replace|patch|update/i.test(name)
    ? 'Changed'
    : /read|view|cat|open/i.test(name)
      ? 'Read'
      : /grep|search|glob|find|list|ls/i.test(name)
        ? 'Searched'
        : `Used ${name} on`;
  return target === undefined ? `Used ${name}` : `${verb} ${target}`;
}

function referenceMaterial(messages: readonly ContextMessage[]): MaterialItem[] {
  const items: MaterialItem[] = [];
  const last = messages.length - 1;
  messages.forEach((message, order) => {
    const push = (kind: MaterialKind, text: string): void => {
      items.push({ kind, text, order });
    };
    if (message.role === 'system') return;
    if (message.role === 'user') {
      for (const sentence of sentencesOf(message.text)) push(CONSTRAINT.test(sentence) ? 'constraint' : 'request', restate(sentence));
      return;
    }
    if (message.role === 'tool') {
      for (const line of sentencesOf(message.text)
        .filter((s) => PROBLEM.test(s))
        .slice(0, 1))
        push('problem', restate(line));
      return;
    }
    sentencesOf(message.text).forEach((sentence, i) => {
      const kind: MaterialKind = DECISION.test(sentence)
        ? 'decision'
        : PROBLEM.test(sentence)
          ? 'problem'
          : (order >= last - 2 || i > 0) && NEXT.test(sentence)
            ? 'next'
            : 'done';
      push(kind, restate(sentence));
    });
    for (const call of message.toolCalls ?? []) push('done', describeCall(call.name, call.args));
  });
  return items;
}

const WEIGHT = { user: 3, assistant: 2, call: 2, tool: 0.25 } as const;
const PLACES = ['user', 'assistant', 'call', 'tool'] as const;

/** The rule of summary-specifics.ts, over whole texts with no memo: shares by place and recurrence, scaled to the budget. */
function referenceChoice(messages: readonly ContextMessage[], budgetTokens: number): ChosenSpecifics {
  const found: Record<SpecificKind, Map<string, { place: number; count: number; score: number }>> = {
    paths: new Map(),
    numbers: new Map(),
    identifiers: new Map(),
  };
  let chars = 0;
  messages.forEach((message, index) => {
    const late = 1 + index / Math.max(1, messages.length - 1);
    const parts: { text: string; place: number }[] = [
      ...(message.role === 'system' ? [] : [{ text: message.text, place: PLACES.indexOf(message.role) }]),
      ...(message.toolCalls ?? []).map((call) => ({ text: callArgumentText(call), place: 2 })),
    ];
    for (const { text, place } of parts) {
      chars += text.length;
      for (const kind of SPECIFIC_KINDS) {
        for (const { value } of findSpecifics(text, kind)) {
          const known = found[kind].get(value) ?? { place, count: 0, score: 0 };
          known.place = Math.min(known.place, place);
          known.count += 1;
          known.score += WEIGHT[PLACES[place] ?? 'tool'] * late;
          found[kind].set(value, known);
        }
      }
    }
  });
  const length = FITTED.length.scale * Math.max(1, chars / 1000) ** FITTED.length.exponent;
  const scale = Math.min(1, budgetTokens / length);
  const recurrence = (n: number): number => (n >= 10 ? 3 : n >= 4 ? 2 : n >= 2 ? 1 : 0);
  const chosen: ChosenSpecifics = { paths: new Set(), numbers: new Set(), identifiers: new Set() };
  for (const kind of SPECIFIC_KINDS) {
    const ranked = [...found[kind]]
      .reverse()
      .map(([value, m]) => ({ value, m, share: FITTED.keep[kind][PLACES[m.place] ?? 'tool'][recurrence(m.count)] ?? 0 }));
    const expected = ranked.reduce((n, r) => n + r.share, 0);
    ranked.sort((a, b) => b.share - a.share || b.m.score - a.m.score);
    for (const { value } of ranked.slice(0, Math.round(expected * scale))) chosen[kind].add(value);
  }
  return chosen;
}

function referenceParaphrase(text: string, chosen: ChosenSpecifics): string {
  const replaceKind = (input: string, kind: SpecificKind, rewrite: (value: string) => string): string => {
    let out = '';
    let from = 0;
    for (const { value, at } of findSpecifics(input, kind)) {
      out += input.slice(from, at) + (chosen[kind].has(value) ? value : rewrite(value));
      from = at + value.length;
    }
    return out + input.slice(from);
  };
  const fileName = (path: string): string =>
    path
      .split('/')
      .filter((part) => part !== '')
      .pop() ?? 'the file';
  const words = (identifier: string): string =>
    identifier
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/_+/g, ' ')
      .toLowerCase()
      .trim();
  let out = replaceKind(text, 'paths', fileName);
  out = replaceKind(out, 'identifiers', words);
  out = replaceKind(out, 'numbers', () => '');
  return out
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/\s+([)\],.;:])/g, '$1')
    .replace(/\(\s*\)|\[\s*\]/g, '')
    .trim();
}

// ---- Random histories, with the white space and punctuation sentences are cut at. ----

/** Words, and the specifics and markers the reading treats apart; `|` between them. */
const WORDS = (
  "the|agent|fixed|parser|We|decided|to|use|Postgres|because|Redis|must|never|don't|error|failed|not found|next|" +
  "then|Let me|Now,|OK!|I'll|still|need to|handleWebhook|processed_events|src/payments/webhook.ts|./lib/a.py|" +
  '/home/u/p/x.tex|https://example.com/a/b.ts|8437|154,565|Cheng2024|port 5432|countTokens|HarnessError|' +
  'read_file|v1.2.3|(see)|[x]|()|- item|1.|#|>|•|```ts|naïve|été|ab|xyz'
).split('|');
/** What stands between words: spaces, sentence ends, line breaks of every kind, list markers. */
const SEPARATORS = [' ', ' ', ' ', ' ', '. ', '! ', '? ', '.\n', '\n', '\n\n', '\r\n', '. \n  ', '.\t', ' \r ', '\u00a0', ':  ', ', '];
const MORE_SEPARATORS = ['\n- ', '\n  ', '.\r\n\r\n'];

function randomText(random: Random, maxWords: number): string {
  let text = random.pick(WORDS);
  for (let n = random.int(0, maxWords); n > 0; n--) text += random.pick(random.chance(0.1) ? MORE_SEPARATORS : SEPARATORS) + random.pick(WORDS);
  return text;
}

function randomCall(random: Random, id: string): ToolCall {
  const name = random.pick(['shell', 'edit_file', 'read_file', 'grep', 'custom_tool']);
  const args: Record<string, unknown> =
    name === 'shell' ? { command: randomText(random, 10) } : { path: random.pick(WORDS), old_string: randomText(random, 6), count: random.int(0, 2000) };
  return { id, name, args };
}

function randomHistory(random: Random, length: number): ContextMessage[] {
  return Array.from({ length }, (_, i): ContextMessage => {
    const role = i === 0 ? 'system' : random.pick(['user', 'assistant', 'assistant', 'tool'] as const);
    const message: MessageDraft = { type: 'message', id: `m${i}`, role, text: randomText(random, role === 'tool' ? 60 : 25) };
    if (role === 'assistant' && random.chance(0.5))
      message.toolCalls = [randomCall(random, `c${i}`), ...(random.chance(0.3) ? [randomCall(random, `d${i}`)] : [])];
    return message;
  });
}

/** A span sent as one text, as turn-summary.ts and the map-reduce helpers send it. */
function asOneText(messages: readonly ContextMessage[], previous: string): ContextMessage {
  const rendered = messages.map((m) =>
    [`${m.role}: ${m.text}`, ...(m.toolCalls ?? []).map((c) => `${m.role} calls ${c.name} ${JSON.stringify(c.args)}`)].join('\n'),
  );
  return { type: 'message', id: 'span', role: 'user', text: `${previous}\n\nNew conversation span to merge:\n${rendered.join('\n')}` };
}

/** Summary requests as a run makes them: growing prefixes, moving windows, copies, spans as one text. */
function requestsOf(random: Random, history: readonly ContextMessage[]): ContextMessage[][] {
  const requests: ContextMessage[][] = [];
  for (let round = 0; round < 12; round++) {
    const end = random.int(2, history.length);
    const start = random.int(0, end - 1);
    const window = history.slice(start, end);
    requests.push(history.slice(0, end));
    requests.push(window);
    requests.push(window.map((m) => structuredClone(m)));
    requests.push([asOneText(window, randomText(random, 20))]);
    requests.push([asOneText(window.slice(1), 'There is no previous summary yet.'), ...window.slice(0, 1)]);
  }
  return requests;
}

const tokenizer = createTokenizer('o200k_base');
const count = (text: string): number => tokenizer.count(text);

describe('the summarizer’s memos', () => {
  it('read every history as the whole-text reading does', () => {
    for (const seed of [1, 2, 3]) {
      const random = createRandom(seed);
      for (const request of requestsOf(random, randomHistory(random, 40))) {
        expect(gatherMaterial(request)).toEqual(referenceMaterial(request));
        for (const budget of [100, 700, 3000]) {
          const chosen = chooseSpecifics(request, budget);
          const expected = referenceChoice(request, budget);
          for (const kind of SPECIFIC_KINDS) expect([...chosen[kind]]).toEqual([...expected[kind]]);
        }
      }
    }
  });

  it('paraphrase a sentence as from scratch under every choice, however the choices follow each other', () => {
    const random = createRandom(7);
    const history = randomHistory(random, 60);
    const sentences = referenceMaterial(history).map((item) => item.text);
    const named: ChosenSpecifics = { paths: new Set(), numbers: new Set(), identifiers: new Set() };
    for (const message of history) for (const kind of SPECIFIC_KINDS) for (const { value } of findSpecifics(message.text, kind)) named[kind].add(value);
    for (let round = 0; round < 40; round++) {
      // A random share of the named specifics kept: answers change for some sentences, not for others.
      const share = random.next();
      const chosen: ChosenSpecifics = { paths: new Set(), numbers: new Set(), identifiers: new Set() };
      for (const kind of SPECIFIC_KINDS) for (const value of named[kind]) if (random.chance(share)) chosen[kind].add(value);
      for (const sentence of sentences) expect(paraphraseSpecifics(sentence, chosen)).toBe(referenceParaphrase(sentence, chosen));
    }
  });

  it('write the same summary warm, and passing over lines by their floor, as cold and counting every line', async () => {
    const random = createRandom(11);
    const requests = requestsOf(random, randomHistory(random, 30)).slice(0, 40);
    const prompts = [HANDOFF_PROMPT, RECAP_PROMPT, STRUCTURED_SUMMARY_PROMPT, MAP_PROMPT];
    const options = (i: number): SummaryOptions => ({ budgetTokens: [60, 300, 900][i % 3] as number, count, prompt: prompts[i % 4] as string });
    const atLeast = tokenFloor(tokenizer);
    const warm = requests.map((request, i) => summarizeMessages(request, { ...options(i), ...(atLeast === undefined ? {} : { atLeast }) }));
    expect(new Set(warm).size).toBeGreaterThan(20);
    for (const [i, request] of requests.entries()) {
      vi.resetModules();
      const cold = await import('../../src/simulator/summarizer.js');
      expect(cold.summarizeMessages(request, options(i))).toBe(warm[i]);
    }
  });
});
