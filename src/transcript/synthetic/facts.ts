import type { Random } from '../../random.js';
import type { ProbeKind } from '../types.js';
import type { ToolAction } from './prose.js';
import type { Project } from './vocab.js';
import { configPort, createdFile, envValue, failingTest, revertCommit } from './facts-tools.js';
import { customer, decision, nextMigration, stillFailing, ticket } from './facts-text.js';
import { pinnedDependency } from './hard.js';

/**
 * Facts the generator plants, each with the probe that asks about it. A fact's value is written
 * as a marker while the session is rendered and chosen afterwards, so that it can be checked to
 * occur nowhere else in the session (a strategy that drops the evidence loses the answer).
 *
 * A question uses the words of the line that holds its answer (the service named beside a port,
 * the circumstance in a test's name, the task title in a request), so that a reader who has the
 * evidence can find it; thinking and prose around a fact avoid those words, so that they do not
 * outrank it.
 */

/** Where a fact lives: a tool result, an assistant message, a task's last message, a user request. */
type FactSlot = 'tool' | 'text' | 'final' | 'user';
/** Which free slot is taken: the first, a random one, or the last. */
type FactPosition = 'early' | 'any' | 'late';

interface FactContext {
  random: Random;
  project: Project;
  /** The task whose slot holds the fact. */
  task: { id: string; title: string; testFile: string };
  /** Stands for the value until it is chosen. */
  marker: string;
  /** Size of a tool result, in characters. */
  targetChars: number;
  /** Plant look-alikes of the value beside it (another service's port, another key), for harder probes. */
  distractors: boolean;
}

/** What a later change of a fact's value needs: a marker for the new value and the old one's. */
interface UpdateContext {
  random: Random;
  /** Stands for the new value. */
  marker: string;
  /** Stands for the value being replaced. */
  previous: string;
}

/** What a fact puts into its slot, and how its value is drawn. */
export interface FactFrame {
  /** Distinguishes two facts of one template in a session (their questions must differ). */
  subject: string;
  question: string;
  /** For tool facts: the call of the step and its result. */
  /** `keepsLayout`: the fact's line stays where the template put it, whatever `factPosition` says. */
  call?: { name: ToolAction; args: Record<string, unknown>; result: string; keepsLayout?: boolean };
  /** Tool facts: replaces what the assistant says; other facts: appended to the message text. */
  text?: string;
  /** Tool facts: the thinking of the step (never holds the value). */
  thinking?: string;
  drawValue(random: Random): string;
  /**
   * For facts whose value can change later in the session (harder probes): the frame of the
   * later step that changes it. The probe then expects the new value; the old one stays behind as
   * a distractor.
   */
  update?(context: UpdateContext): FactFrame;
}

export interface FactTemplate {
  name: string;
  kind: ProbeKind;
  slot: FactSlot;
  position: FactPosition;
  /** Set when the frames can change their value later (`FactFrame.update`): the slot the change takes. */
  updateSlot?: 'tool' | 'text';
  frame(context: FactContext): FactFrame;
}

/** The templates in the order facts are planted; the list repeats when more facts are asked for. */
export const FACT_TEMPLATES: readonly FactTemplate[] = [
  configPort,
  failingTest,
  decision,
  createdFile,
  stillFailing,
  ticket,
  revertCommit,
  envValue,
  nextMigration,
  customer,
];

/** With `hard: true`: the same, and a fact only in the first tool output of the session. */
export const HARD_FACT_TEMPLATES: readonly FactTemplate[] = [configPort, pinnedDependency, ...FACT_TEMPLATES.slice(1)];
