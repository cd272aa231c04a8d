import { z } from 'zod';
import { UsageError } from '../../errors.js';
import { createRandom, deriveSeed, hashString, type Random } from '../../random.js';
import { firstVisibleStep } from '../structure.js';
import type { Dialect, MessageEvent, Probe, ProbeAsk, TaskEvent, Transcript, TranscriptEvent } from '../types.js';
import type { MessageDraft, Writable } from '../draft.js';
import { planSession } from './plan.js';
import { MARKER_PATTERN, renderDraft, type Draft, type DraftFact } from './render.js';
import { ALNUM, createProject, randomString } from './vocab.js';
import { pickAbsentQuestions } from './hard.js';
import { FACT_POSITIONS } from './placement.js';
import { describeSchemaError } from '../../validate.js';

/**
 * A seeded synthetic session of a coding agent (DESIGN.md §6: probes planted by the generator).
 * The same options always give byte-identical output: every choice comes from the seed.
 */
export const syntheticOptionsSchema = z
  .strictObject({
    /** Number of assistant messages (steps). */
    steps: z.number().int().min(1).max(100_000).default(40),
    seed: z.number().int().min(0).max(0xffffffff).default(1),
    /** `gemini` adds thought signatures to tool-calling turns. */
    dialect: z.enum(['gemini', 'openai']).default('gemini'),
    /** Average size of a tool result, in tokens (about 4 characters each). */
    toolOutputTokens: z.number().int().min(10).max(1_000_000).default(1500),
    /** Number of tasks (user requests); default steps / 8, at least 1, at most `steps`. */
    tasks: z.number().int().min(1).optional(),
    /** Record `at` times from 2026-01-01T00:00:00Z with seeded gaps of 5–40 s. */
    timed: z.boolean().default(false),
    /** Facts to plant, each with a probe; fewer are planted when the session has too few slots. */
    facts: z.number().int().min(0).max(10_000).default(6),
    /**
     * Harder probes: a fact only in the first tool output, look-alike values beside facts, later
     * changes of some values (one per four facts; the probe expects the latest), and questions
     * about things the session never mentions (one per five facts; the answer is to say so).
     */
    hard: z.boolean().optional(),
    /**
     * Where a planted fact's line sits in its tool output: `uniform` (a seeded line anywhere),
     * `head` (where the renderers put it, near the top: the behaviour before this option) or
     * `tail` (the last tenth of the lines).
     */
    factPosition: z.enum(FACT_POSITIONS).default('uniform'),
    /** Header model; default `gemini-2.5-flash` or `gpt-4.1` by dialect. */
    model: z.string().min(1).optional(),
    contextWindow: z.number().int().positive().optional(),
  })
  .refine((o) => o.tasks === undefined || o.tasks <= o.steps, { path: ['tasks'], message: 'tasks cannot exceed steps (each task needs a step)' });

export type SyntheticOptionsInput = z.input<typeof syntheticOptionsSchema>;
export type SyntheticOptions = z.output<typeof syntheticOptionsSchema>;

const START_MS = Date.parse('2026-01-01T00:00:00Z');
const DEFAULT_MODEL: Record<SyntheticOptions['dialect'], string> = { gemini: 'gemini-2.5-flash', openai: 'gpt-4.1' };

/**
 * Generates a session: a system prompt, one user request per task, per task a `task` event
 * `in_progress`, assistant steps with thinking and tool calls, large tool results, a `task`
 * `completed` event; then one `probe` event per planted fact.
 * @throws UsageError when the options do not validate.
 */
export function generateSession(input: SyntheticOptionsInput = {}): Transcript {
  const options = parseOptions(input);
  const { seed, dialect } = options;
  const planRandom = createRandom(deriveSeed(seed, 'synthetic:plan'));
  const project = createProject(planRandom);
  const tasks = options.tasks ?? Math.max(1, Math.floor(options.steps / 8));
  const hard = options.hard === true;
  // The harder probes draw from streams of their own, so an ordinary session's plan is unchanged.
  const plan = planSession(planRandom, project, { steps: options.steps, tasks, facts: options.facts, hard }, createRandom(deriveSeed(seed, 'synthetic:hard')));
  const callRandom = createRandom(deriveSeed(seed, 'synthetic:call-ids'));
  const draft = renderDraft(createRandom(deriveSeed(seed, 'synthetic:content')), project, plan, {
    toolOutputChars: options.toolOutputTokens * 4,
    callId: (n) => (dialect === 'openai' ? `call_${randomString(callRandom, ALNUM, 24)}` : `fc-${n}`),
    distractors: hard,
    factPosition: options.factPosition,
    placement: createRandom(deriveSeed(seed, 'synthetic:placement')),
  });
  const values = chooseValues(createRandom(deriveSeed(seed, 'synthetic:values')), draft);
  const events = draft.events.map((event) => substitute(event, values));
  const probes = buildProbes(createRandom(deriveSeed(seed, 'synthetic:probes')), draft, values, options.steps);
  if (hard) probes.push(...absentProbes(createRandom(deriveSeed(seed, 'synthetic:absent')), events, probes.length, Math.max(1, Math.floor(options.facts / 5))));
  decorateMessages(events, options);
  if (options.timed) addTimes(createRandom(deriveSeed(seed, 'synthetic:time')), events);
  const model = options.model ?? DEFAULT_MODEL[dialect];
  return {
    header: {
      type: 'session',
      // Seed and size are readable; the hash tells apart sessions that differ in other options.
      id: `synthetic-${dialect}-s${seed}-n${options.steps}-${hashString(JSON.stringify(identityOf(options))).toString(36)}`,
      title: `Synthetic session: ${project.name} (${project.language}), ${plural(tasks, 'task')}, ${plural(options.steps, 'step')}`,
      source: { format: 'synthetic', licence: 'generated by ctxbench; no third-party content' },
      dialect,
      model,
      ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    },
    events: [...events, ...probes.map((probe): TranscriptEvent => ({ type: 'probe', probe }))],
    file: '<synthetic>',
    skipped: [],
    unknown: {},
  };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The options that name a session: `head` placement is left out, so its sessions keep the ids they had before the option. */
function identityOf(options: SyntheticOptions): Partial<SyntheticOptions> {
  const { factPosition, ...rest } = options;
  return factPosition === 'head' ? rest : options;
}

function parseOptions(input: SyntheticOptionsInput): SyntheticOptions {
  const parsed = syntheticOptionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const { field, message } = describeSchemaError(parsed.error);
  throw new UsageError(`invalid synthetic option ${field}: ${message}`);
}

/**
 * Draws each fact's value so that it occurs nowhere in the session but where its marker is (and
 * is not part of another fact's value): dropping the evidence must lose the answer.
 */
function chooseValues(random: Random, draft: Draft): string[] {
  const rest = draft.events.map(textsOf).join('\n').replace(MARKER_PATTERN, '\n').toLowerCase();
  const values: string[] = [];
  for (const fact of draft.facts) {
    values.push(drawUniqueValue(random, fact, rest, values));
  }
  return values;
}

function drawUniqueValue(random: Random, fact: DraftFact, rest: string, taken: readonly string[]): string {
  for (let attempt = 0; attempt < 500; attempt++) {
    const value = fact.frame.drawValue(random);
    const lower = value.toLowerCase();
    const clashes = rest.includes(lower) || taken.some((other) => other.toLowerCase().includes(lower) || lower.includes(other.toLowerCase()));
    if (!clashes) return value;
  }
  // The value spaces are large and the prose never uses them; reaching this is a generator bug.
  throw new Error(`synthetic generator: no unique value for fact ${fact.placement.template.name} (${fact.frame.subject})`);
}

/** Every string of an event that a reader could see, for the uniqueness check. */
function textsOf(event: TranscriptEvent): string {
  switch (event.type) {
    case 'message':
      return [event.text, event.thinking ?? '', event.toolCalls === undefined ? '' : JSON.stringify(event.toolCalls)].join('\n');
    case 'task':
      return [event.title ?? '', event.resultSummary ?? '', ...(event.criteria ?? [])].join('\n');
    default:
      return '';
  }
}

/**
 * One probe per planted fact. A fact whose value a later step changes is asked about its latest
 * value, with the change as its evidence (the old value stays in the session as a distractor).
 */
function buildProbes(random: Random, draft: Draft, values: readonly string[], steps: number): Probe[] {
  const latest = (index: number): number => {
    const change = draft.facts.findIndex((f) => f.updates === index);
    return change < 0 ? index : latest(change);
  };
  const messagesWith = (marker: string): number[] => {
    const found: number[] = [];
    draft.events.forEach((event, eventIndex) => {
      if (event.type === 'message' && event.text.includes(marker)) found.push(eventIndex);
    });
    return found;
  };
  const located = draft.facts.flatMap((fact, index) => {
    if (fact.updates !== undefined) return [];
    const last = latest(index);
    return [{ fact, value: values[last] ?? '', evidence: messagesWith(draft.facts[last]?.marker ?? fact.marker) }];
  });
  // Probes are numbered in the order their evidence appears in the session.
  located.sort((a, b) => (a.evidence[0] ?? 0) - (b.evidence[0] ?? 0));
  return located.map(({ fact, value, evidence }, index) => {
    const visibleFrom = Math.max(...evidence.map((e) => firstVisibleStep(draft.events, e)));
    const ask: ProbeAsk[] = ['end'];
    if (visibleFrom <= steps - 1 && random.chance(0.5)) ask.push({ step: random.int(visibleFrom, steps - 1) });
    return {
      id: `probe-${index + 1}-${fact.placement.template.name}`,
      kind: fact.placement.template.kind,
      question: fact.frame.question,
      expected: { anyOf: [value] },
      evidence: evidence.map((e) => (draft.events[e] as MessageEvent).id),
      ask,
      origin: 'synthetic',
    };
  });
}

/**
 * "Not in the session" probes: questions about things the session never mentions (checked on its
 * final text), whose right answer is to say so. Numbered after the planted facts' probes.
 */
function absentProbes(random: Random, events: readonly TranscriptEvent[], offset: number, count: number): Probe[] {
  const text = events.map(textsOf).join('\n');
  return pickAbsentQuestions(random, text, count).map((question, i) => ({
    id: `probe-${offset + i + 1}-absent`,
    kind: 'recall',
    question,
    expected: { notInSession: true },
    evidence: [],
    ask: ['end'],
    origin: 'synthetic',
  }));
}

function substitute(event: TranscriptEvent, values: readonly string[]): TranscriptEvent {
  if (event.type !== 'message') return event;
  const fill = (text: string): string => text.replace(MARKER_PATTERN, (_, index: string) => values[Number(index)] ?? '');
  return {
    ...event,
    text: fill(event.text),
    ...(event.thinking !== undefined ? { thinking: fill(event.thinking) } : {}),
    ...(event.toolCalls !== undefined
      ? { toolCalls: event.toolCalls.map((call) => ({ ...call, args: JSON.parse(fill(JSON.stringify(call.args))) as Record<string, unknown> })) }
      : {}),
  };
}

/** Adds dialect, recorded usage (≈ 4 characters a token) and, for Gemini, thought signatures. */
function decorateMessages(events: TranscriptEvent[], options: SyntheticOptions): void {
  let contextChars = 0;
  for (const event of events) {
    if (event.type !== 'message') continue;
    // The generator's own messages (substitute's copies), not yet part of a transcript.
    const message = event as MessageDraft;
    const chars = textsOf(message).length;
    if (message.role === 'assistant') {
      const thinking = message.thinking?.length ?? 0;
      message.usage = { input: Math.ceil(contextChars / 4), output: Math.ceil(chars / 4), ...(thinking > 0 ? { reasoning: Math.ceil(thinking / 4) } : {}) };
      if (options.dialect === 'gemini' && message.toolCalls !== undefined) message.thoughtSignature = signatureOf(options.seed, message.id);
    }
    message.dialect = options.dialect as Dialect;
    contextChars += chars;
  }
}

/** A stable opaque string shaped like a Gemini thought signature (base64). */
function signatureOf(seed: number, messageId: string): string {
  const random = createRandom(deriveSeed(seed, `synthetic:signature:${messageId}`));
  return randomString(random, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 96);
}

/** Messages advance the clock by 5–40 s; task events take the time of the message before them. */
function addTimes(random: Random, events: TranscriptEvent[]): void {
  let now = START_MS;
  let first = true;
  for (const event of events) {
    if (event.type === 'message') {
      if (!first) now += random.int(5, 40) * 1000;
      first = false;
      (event as MessageDraft).at = new Date(now).toISOString();
    } else if (event.type === 'task') {
      (event as Writable<TaskEvent>).at = new Date(now).toISOString();
    }
  }
}
