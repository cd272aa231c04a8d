import type { Random } from '../../random.js';
import { fill, pickDistinct, type Project } from './vocab.js';

/** What the synthetic agent and its user say: prompts, requests, thinking, replies, summaries. */

export type TaskKind = 'bugfix' | 'feature' | 'flaky' | 'refactor' | 'perf';
export type ToolAction = 'read_file' | 'run_tests' | 'grep' | 'edit_file' | 'shell';
/** What the prose is about: a tool action, or `retest` (running the tests after an edit). */
export type ProseAction = ToolAction | 'retest';

/** Slot values of prose templates: `{module}`, `{fn}`, `{testFile}`, `{noun}`, `{qual}`, `{verb}`... */
export type Slots = Record<string, string | number>;

const TITLES: Record<TaskKind, readonly string[]> = {
  bugfix: ['Fix {fn} for {qual} {noun}s', 'Fix wrong totals from {fn} on {qual}', '{fn} crashes on {qual} {noun}s'],
  feature: ['Add {verb} support for {noun}s', 'Expose a {verb} endpoint for {noun}s', 'Support {qual} in {fn}'],
  flaky: ['Stabilise the flaky {noun} tests', 'Fix intermittent failures in {testFile}'],
  refactor: ['Refactor {module} to share the {noun} lookup', 'Split {fn} into smaller helpers'],
  perf: ['Speed up {verb} of large {noun} batches', 'Cut the query count of {fn}'],
};

const REQUESTS: Record<TaskKind, readonly string[]> = {
  bugfix: [
    'Customers with {qual} {noun}s are getting wrong results. I think the problem is in `{module}`, around `{fn}`. Can you find the cause and fix it? Please add a regression test to `{testFile}`.',
    'Support escalated this morning: `{fn}` blows up whenever a {noun} hits {qual}. Reproduce it with a test first, then fix it. Keep the public signature of `{fn}` unchanged.',
    'There is a bug in `{module}`: {qual} {noun}s go through `{fn}` twice. Track it down and fix it, with a test in `{testFile}`.',
  ],
  feature: [
    'We need to {verb} {noun}s from the API. Add it to `{module}` next to the existing code, with tests in `{testFile}`. Follow the patterns already in the module.',
    'Product wants {qual} handled in `{fn}`. Implement it behind the existing code path and cover it with tests.',
  ],
  flaky: [
    '`{testFile}` fails about one run in ten on CI. Find out why it is flaky and make it deterministic. Do not just add retries.',
    'The {noun} tests are flaky again (CI job `unit` on main). Can you look at `{testFile}` and fix the root cause?',
  ],
  refactor: [
    '`{module}` has grown hard to follow. Please refactor `{fn}` so the {noun} lookup is shared, without changing behaviour. The tests in `{testFile}` must keep passing.',
    'Clean up `{module}`: split `{fn}` into smaller functions and remove the duplicated {noun} queries. No behaviour change.',
  ],
  perf: [
    '`{fn}` is slow on batches of a few thousand {noun}s (p95 over 4 s). Profile it and make it faster without changing results.',
    'The nightly {verb} job times out. Most of the time is spent in `{module}`. Can you cut the number of queries?',
  ],
};

const THINKING: Record<ProseAction, readonly string[]> = {
  read_file: [
    'Before changing anything I should read {file} and see how {fn} deals with {qual}.',
    'The traceback points into {file}. Reading it around the {noun} handling should show whether the check happens before or after normalisation.',
    'I have not looked at {file} yet; it probably holds the {noun} model the tests construct.',
    'Need the full context of {fn}: where the inputs come from and what it returns on the early exits.',
  ],
  run_tests: [
    'Run the {noun} tests to get a baseline before touching the code.',
    'Let me run the suite to see what fails right now and how.',
    'First reproduce the problem: run {testFile} and read the failure carefully.',
  ],
  retest: [
    'The edit should fix the assertion; run {testFile} again to confirm and to catch regressions next to it.',
    'Re-running the tests: if the failure moved, the first hypothesis was incomplete.',
    'Check the change against the whole {noun} suite, not only the test I was looking at.',
  ],
  grep: [
    'I need every caller of {fn} before changing its behaviour, otherwise I might break one of them.',
    'Searching for {fn} should show where the {noun} logic is spread across modules.',
    'Is {fn} used in tests with mocks? A grep will tell me whether the tests pin the old behaviour.',
  ],
  edit_file: [
    'The root cause is clear now: {qual} is not handled before {fn} runs. Fix it in {file} with the smallest change.',
    'I will guard the early exit in {fn} and keep the signature as it is, since other modules call it.',
    'Edit {file}: move the normalisation before the comparison so both paths see the same value.',
  ],
  shell: [
    'Let me look at the recent history; a recent change may have introduced this.',
    'Checking the environment: the dependency versions could explain the different behaviour on CI.',
    'The service logs should show whether the {noun} path is hit in production at all.',
  ],
};

const SAYINGS: Record<ProseAction, readonly string[]> = {
  read_file: ['Let me read `{file}`.', 'Reading `{file}` to see how `{fn}` works.', 'Opening `{file}` next.', 'I will look at `{file}` first.'],
  run_tests: ['Running the tests.', 'Let me run `{testFile}`.', 'Reproducing with `{command}`.'],
  retest: ['Running the suite to check the change.', 'Re-running the {noun} tests.', 'Re-running `{testFile}` after the edit.'],
  grep: ['Searching for usages of `{fn}`.', 'Let me find where `{fn}` is called.', 'Grepping the repository for `{fn}`.'],
  edit_file: ['Applying the fix to `{file}`.', 'Editing `{file}`.', 'Making the change in `{fn}`.', 'Updating `{file}` with the guard.'],
  shell: ['Checking with `{command}`.', 'Let me run `{command}`.', 'Running `{command}` for context.'],
};

const OBSERVATIONS = [
  'The failing assertion compares the {noun} after {verb}, so the bug is upstream of the assertion.',
  'There are two code paths for {qual}; only one of them normalises the input.',
  '`{fn}` returns early on {qual} without updating the status, which matches the symptom.',
  'The tests build {noun}s through a factory that hides the {qual} case.',
  'Only the batch path is affected; single {noun}s go through a different helper.',
  'The {noun} factory in the tests sets {qual} only in one fixture, which explains why CI catches it and local runs do not.',
];

const FINALS = [
  'Done. I changed `{fn}` in `{module}` so that {qual} {noun}s are handled before the {verb} step, and added a regression test to `{testFile}`. The suite passes ({count} tests).',
  'Finished: the fix is in `{module}` (`{fn}` now handles {qual}), covered by a new test in `{testFile}`. All {count} tests pass locally.',
  'The change is ready. `{fn}` no longer mishandles {qual}; I kept its signature unchanged and added tests. {count} tests pass.',
  'All set: `{module}` is updated and `{testFile}` covers the new behaviour. Ran the full suite: {count} passed.',
];

/** Replies of a task that ends with something left open (a planted continuation follows them). */
const PARTIAL_FINALS = [
  'Most of it is done: `{fn}` in `{module}` now handles {qual}, with a new test in `{testFile}`.',
  'The main change is in: `{module}` handles {qual} in `{fn}` and `{testFile}` covers it. Not everything is finished, though.',
];

const SUMMARIES = [
  'Fixed {fn} for {qual}; regression test added; {count} tests pass.',
  '{fn} now handles {qual}; tests added in {testFile}.',
  'Updated {module}; behaviour covered by tests ({count} passing).',
];

const CRITERIA = [
  '`{testFile}` passes',
  'no change to the public signature of `{fn}`',
  'the {qual} case is covered by a test',
  'no new dependency',
  'the full suite passes',
];

export function drawTaskTitle(random: Random, kind: TaskKind, slots: Slots): string {
  return fill(random.pick(TITLES[kind]), slots);
}

export function renderRequest(random: Random, kind: TaskKind, slots: Slots): string {
  return fill(random.pick(REQUESTS[kind]), slots);
}

export function renderThinking(random: Random, action: ProseAction | 'final', slots: Slots): string {
  if (action === 'final') return fill('Everything I set out to do for this task is done; summarise the change and what was verified for the user.', slots);
  const first = fill(random.pick(THINKING[action]), slots);
  return random.chance(0.5) ? `${first} ${fill(random.pick(OBSERVATIONS), slots)}` : first;
}

export function renderSaying(random: Random, action: ProseAction, slots: Slots): string {
  return fill(random.pick(SAYINGS[action]), slots);
}

/** The task's last reply; `isPartial` when the reply goes on to say what is left. */
export function renderFinal(random: Random, slots: Slots, isPartial = false): string {
  return fill(random.pick(isPartial ? PARTIAL_FINALS : FINALS), slots);
}

export function renderResultSummary(random: Random, slots: Slots): string {
  return fill(random.pick(SUMMARIES), slots);
}

export function drawCriteria(random: Random, slots: Slots): string[] {
  return pickDistinct(random, CRITERIA, random.int(1, 3)).map((c) => fill(c, slots));
}

/** The system prompt of a coding agent, varied by project and seed. */
export function renderSystemPrompt(random: Random, project: Project): string {
  const rules = pickDistinct(random, SYSTEM_RULES, random.int(5, SYSTEM_RULES.length));
  return [
    `You are a coding agent working in the repository ${project.name} (${project.language === 'python' ? 'Python' : 'TypeScript'}, ${project.domain.name} domain), checked out at /workspace/${project.name}.`,
    'You can call these tools: read_file(path) returns a file with line numbers; grep(pattern, path) searches the tree; run_tests(command) runs the test suite; edit_file(path, old_string, new_string) edits a file, or creates it when given content; shell(command) runs a command in the repository.',
    'Rules:',
    ...rules.map((rule, i) => `${i + 1}. ${rule}`),
    `Services in this repository: ${project.domain.services.join(', ')}.`,
  ].join('\n');
}

const SYSTEM_RULES = [
  'Read the relevant code before you edit it; never guess at a file you have not opened.',
  'Make the smallest change that fixes the problem, and keep public signatures stable unless asked.',
  'Run the tests after every edit and report failures verbatim.',
  'When you take a design decision, state it and the reason in one sentence.',
  'Do not add dependencies without saying why.',
  'Keep secrets out of logs and of your replies.',
  'When a task is done, summarise what changed, which files, and what still fails.',
  'Prefer the patterns already used in the module over new abstractions.',
];
