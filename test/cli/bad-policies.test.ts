import { describe, it } from 'vitest';
import { expectBadInput, policy, tiny, type Case } from '../helpers/bad-input.js';

/** Policies of fixtures/bad/policies/ that break a rule: what run and verify say of each. */
const CASES: Case[] = [
  {
    name: 'a JS policy that drops tool results but keeps their calls (run, OpenAI)',
    args: ['run', tiny, '--strategy-module', policy('drops-results.mjs'), '--provider-format', 'openai', '--reports', 'json,md'],
    out: true,
    code: 1,
    message:
      /drops-results on tiny: invalid-request: An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'\. The following tool_call_ids did not have response messages: fc-1 at step 1/,
    reported: /\*\*drops-results\*\* crashed: invalid-request: An assistant message with 'tool\\_calls'/,
  },
  {
    name: 'a JS policy that drops tool results but keeps their calls (verify)',
    args: ['verify', policy('drops-results.mjs')],
    code: 1,
    message: /verify drops-results: \d+ invariant violations/,
    stdout: /invalid-request +step 1: OpenAI refuses the request \(400\): An assistant message with 'tool_calls' must be followed by tool messages/,
  },
  {
    name: 'a JS policy that invents a tool call (run, Gemini)',
    args: ['run', tiny, '--strategy-module', policy('invents-call.mjs'), '--provider-format', 'gemini', '--reports', 'json,md'],
    out: true,
    code: 1,
    message:
      /invents-call on tiny: invalid-request: Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn\. at step 2/,
    reported: /\*\*invents-call\*\* crashed: invalid-request: Please ensure/,
  },
  {
    name: 'a JS policy that invents a tool call (verify: no recorded result, so only the provider rules see it)',
    args: ['verify', policy('invents-call.mjs')],
    code: 1,
    message: /verify invents-call: \d+ invariant violations/,
    stdout: /invalid-request +step 2: OpenAI refuses the request \(400\): .*did not have response messages: ghost-2 +\[ids: invented-2\]/,
  },
  {
    name: 'a JS policy that edits messages in place (run)',
    args: ['run', tiny, '--strategy-module', policy('edits-in-place.mjs'), '--reports', 'json,md'],
    out: true,
    code: 1,
    message:
      /edits-in-place on tiny: strategy: strategy module .*edits-in-place\.mjs edited a message in place in prepare \(Cannot assign to read only property 'text'/,
    reported: /\*\*edits-in-place\*\* crashed: strategy: .*edited a message in place in prepare/,
  },
  {
    name: 'a JS policy that edits messages in place (verify)',
    args: ['verify', policy('edits-in-place.mjs')],
    code: 1,
    message: /verify edits-in-place: \d+ invariant violations?/,
    stdout: /edited a message in place in prepare/,
  },
  {
    name: 'a JS policy that edits a message it made itself in place (run)',
    args: ['run', tiny, '--strategy-module', policy('edits-own-note.mjs'), '--reports', 'json,md'],
    out: true,
    code: 1,
    message:
      /edits-own-note on tiny: strategy: strategy module .*edits-own-note\.mjs edited a message in place in prepare \(Cannot assign to read only property 'text'/,
    reported: /\*\*edits-own-note\*\* crashed: strategy: .*edited a message in place in prepare/,
  },
  {
    name: 'a never-settling prepare, one thread',
    args: ['run', policy('never-resolves.yaml'), '--workers', '1', '--reports', 'json,md'],
    out: true,
    code: 1,
    message: /never-resolves on never-resolves: strategy-timeout: prepare\(\) did not return within 300 ms \(timeoutMs\) at step 1/,
    reported: /\*\*never-resolves\*\* crashed: strategy-timeout: prepare\(\) did not return within 300 ms/,
  },
  {
    name: 'a never-settling prepare, two workers, the limit from --strategy-timeout',
    args: ['run', policy('never-resolves.yaml'), '--workers', '2', '--strategy-timeout', '0.2', '--reports', 'json,md'],
    out: true,
    code: 1,
    message: /never-resolves on never-resolves: strategy-timeout: prepare\(\) did not return within 200 ms \(timeoutMs\) at step 1/,
    reported: /never-resolves\*\* crashed: strategy-timeout/,
  },
  {
    name: 'a never-settling prepare (verify --strategy-timeout)',
    args: ['verify', policy('never-resolves.mjs'), '--strategy-timeout', '0.2'],
    code: 1,
    message: /verify never-resolves: 1 invariant violation/,
    stdout: /failed +step 1: the strategy failed: prepare\(\) did not return within 200 ms \(timeoutMs\) at step 1/,
  },
  {
    name: '--strategy-timeout that is not a number of seconds',
    args: ['run', tiny, '--strategy-timeout', 'soon'],
    out: true,
    code: 2,
    message: /--strategy-timeout expects a number of seconds > 0, got "soon"/,
  },
  {
    name: 'a prepare that returns null ends its own unit only',
    args: ['run', policy('policies.yaml'), '--workers', '1', '--reports', 'json,md'],
    out: true,
    code: 1,
    message: /returns-null on policies: strategy: prepare\(\) returned null at step 2/,
    reported: /\*\*returns-null\*\* crashed: strategy: prepare\(\) returned null at step 2/,
  },
  {
    name: 'a policy process writing 100 MB on one line',
    args: ['run', policy('huge-line.yaml'), '--workers', '1', '--reports', 'json,md'],
    out: true,
    code: 1,
    message:
      /huge-line on huge-line: strategy: policy `node huge-line\.mjs` wrote a line longer than 64 MB \(the limit of one message\) and was killed while ctxbench waited for the hello handshake/,
    reported: /\*\*huge-line\*\* crashed: strategy: policy/,
  },
];

describe('fixtures/bad/policies: a policy that breaks a rule ends its own unit, and verify names the rule', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => expectBadInput(c));
});
