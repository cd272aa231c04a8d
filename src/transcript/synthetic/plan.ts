import type { Random } from '../../random.js';
import { FACT_TEMPLATES, HARD_FACT_TEMPLATES, type FactTemplate } from './facts.js';
import { drawTaskTitle, type Slots, type TaskKind, type ToolAction } from './prose.js';
import { drawTestName } from './tests.js';
import { identifier, nounOf, toWords, type Project } from './vocab.js';

/**
 * The shape of a synthetic session before any text is written: its tasks, the assistant steps of
 * each (which tools they call), and which step or request carries each planted fact.
 */

export interface TaskSpec {
  id: string;
  index: number;
  kind: TaskKind;
  title: string;
  module: string;
  testFile: string;
  /** Prose slots of the task (`{fn}`, `{module}`, `{noun}`...). */
  slots: Slots;
  /** A test that fails until the task's first edit (bug fixes and flaky tests). */
  failingTest?: string;
}

export interface StepPlan {
  task: number;
  /** The task's last step: a reply without tool calls. */
  isFinal: boolean;
  actions: ToolAction[];
  /** Index into `SessionPlan.facts` of the fact this step carries. */
  fact?: number;
}

export interface FactPlacement {
  template: FactTemplate;
  task: number;
  /** The step that carries the fact; absent for a fact in the task's user request. */
  step?: number;
  /** For a later change of a fact's value: the index (in `SessionPlan.facts`) of the fact it changes. */
  updates?: number;
}

export interface SessionPlan {
  tasks: TaskSpec[];
  steps: StepPlan[];
  facts: FactPlacement[];
}

const TASK_KINDS: readonly TaskKind[] = ['bugfix', 'bugfix', 'feature', 'flaky', 'refactor', 'perf'];

/**
 * Plans `steps` assistant messages over `tasks` tasks, with up to `facts` planted facts (fewer when
 * slots run out). `hard` adds the harder templates and, drawn from `hardRandom` (so that the plan
 * of an ordinary session does not change), later updates of some facts' values.
 */
export function planSession(
  random: Random,
  project: Project,
  counts: { steps: number; tasks: number; facts: number; hard?: boolean },
  hardRandom?: Random,
): SessionPlan {
  const perTask = splitSteps(random, counts.steps, counts.tasks);
  const tasks = perTask.map((_, index) => planTask(random, project, index));
  const steps: StepPlan[] = [];
  perTask.forEach((count, task) => {
    const kind = tasks[task]?.kind ?? 'bugfix';
    for (let j = 0; j < count; j++) {
      const isFinal = j === count - 1;
      steps.push({ task, isFinal, actions: isFinal ? [] : drawActions(random, kind, j, count - 1) });
    }
  });
  const facts = placeFacts(random, tasks.length, steps, counts.facts, counts.hard === true ? HARD_FACT_TEMPLATES : FACT_TEMPLATES);
  if (counts.hard === true && hardRandom !== undefined) placeUpdates(hardRandom, steps, facts, Math.max(1, Math.floor(counts.facts / 4)));
  return { tasks, steps, facts };
}

/**
 * Plans up to `count` later changes of planted values: for facts whose template can be updated,
 * in order, a free step of the right kind after the fact's own step.
 */
function placeUpdates(random: Random, steps: StepPlan[], facts: FactPlacement[], count: number): void {
  let placed = 0;
  const originals = facts.length;
  for (let index = 0; index < originals && placed < count; index++) {
    const fact = facts[index] as FactPlacement;
    const slot = fact.template.updateSlot;
    if (slot === undefined || fact.step === undefined) continue;
    const from = fact.step;
    const free = range(steps.length).filter((s) => s > from + 1 && isFreeFor({ ...fact.template, slot }, steps[s]));
    const step = random.pick(free.length > 0 ? free : [-1]);
    const plan = steps[step];
    if (plan === undefined) continue;
    plan.fact = facts.length;
    facts.push({ template: fact.template, task: plan.task, step, updates: index });
    placed++;
  }
}

/** Every task gets one step; the rest are spread with seeded weights. */
function splitSteps(random: Random, steps: number, tasks: number): number[] {
  const weights = Array.from({ length: tasks }, () => 0.5 + random.next());
  const total = weights.reduce((a, b) => a + b, 0);
  const spare = steps - tasks;
  const counts = weights.map((w) => 1 + Math.floor((spare * w) / total));
  let left = steps - counts.reduce((a, b) => a + b, 0);
  for (let i = random.int(0, tasks - 1); left > 0; i = (i + 1) % tasks, left--) counts[i] = (counts[i] ?? 0) + 1;
  return counts;
}

function planTask(random: Random, project: Project, index: number): TaskSpec {
  const kind = random.pick(TASK_KINDS);
  const which = random.int(0, project.modules.length - 1);
  const module = project.modules[which] ?? project.modules[0] ?? '';
  const testFile = project.testFiles[which] ?? project.testFiles[0] ?? '';
  const noun = nounOf(module);
  const verb = random.pick(project.domain.verbs);
  const qual = random.pick(project.domain.qualifiers);
  const slots: Slots = { module, testFile, noun: toWords(noun), verb, qual: toWords(qual), fn: identifier(project.language, verb, noun) };
  const title = drawTaskTitle(random, kind, slots);
  const failingTest = kind === 'bugfix' || kind === 'flaky' ? drawTestName(random, project, noun) : undefined;
  return { id: `task-${index + 1}`, index, kind, title, module, testFile, slots: { ...slots, title }, ...(failingTest ? { failingTest } : {}) };
}

/** Tool calls of tool step `j` of `k`: explore first, then edit and test; the last one runs the tests. */
function drawActions(random: Random, kind: TaskKind, j: number, k: number): ToolAction[] {
  if (j === k - 1 && k > 1) return ['run_tests'];
  if (j === 0 && kind === 'bugfix' && random.chance(0.5)) return ['run_tests'];
  if (j / k < 0.34) {
    const first = random.pick<ToolAction>(['grep', 'read_file', 'read_file', 'shell']);
    // Agents often read two files in one turn while exploring (parallel tool calls).
    return random.chance(0.25) ? [first, 'read_file'] : [first];
  }
  return [random.pick<ToolAction>(['read_file', 'edit_file', 'edit_file', 'run_tests'])];
}

/** Most constrained slots are filled first, so that a short session still gets its continuation fact. */
const SLOT_ORDER = { final: 0, user: 1, tool: 2, text: 3 } as const;

function placeFacts(random: Random, taskCount: number, steps: StepPlan[], count: number, templates: readonly FactTemplate[]): FactPlacement[] {
  const wanted = Array.from({ length: count }, (_, i) => templates[i % templates.length] as FactTemplate);
  wanted.sort((a, b) => SLOT_ORDER[a.slot] - SLOT_ORDER[b.slot]);
  const facts: FactPlacement[] = [];
  const usedRequests = new Set<number>();
  for (const template of wanted) {
    if (template.slot === 'user') {
      const free = range(taskCount).filter((t) => !usedRequests.has(t));
      const task = choose(random, free, template.position);
      if (task === undefined) continue;
      usedRequests.add(task);
      facts.push({ template, task });
      continue;
    }
    const free = range(steps.length).filter((s) => isFreeFor(template, steps[s]));
    const step = choose(random, free, template.position);
    const plan = step === undefined ? undefined : steps[step];
    if (step === undefined || plan === undefined) continue;
    plan.fact = facts.length;
    facts.push({ template, task: plan.task, step });
  }
  return facts;
}

function isFreeFor(template: FactTemplate, step: StepPlan | undefined): boolean {
  if (step === undefined || step.fact !== undefined) return false;
  if (template.slot === 'final') return step.isFinal;
  if (template.slot === 'tool') return !step.isFinal;
  return true;
}

function choose(random: Random, free: number[], position: FactTemplate['position']): number | undefined {
  if (free.length === 0) return undefined;
  if (position === 'early') return free[0];
  if (position === 'late') return free[free.length - 1];
  return random.pick(free);
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
