import { afterEach, describe, expect, it, vi } from 'vitest';
import { join, resolve } from 'node:path';
import { cli } from '../helpers/cli.js';

const examples = resolve(import.meta.dirname, '../../examples');

afterEach(() => vi.restoreAllMocks());

describe('ctxbench verify', () => {
  it('passes the JS module example', async () => {
    const { code, stdout } = await cli(['verify', join(examples, 'js-policy', 'masking.mjs')]);
    expect(code).toBe(0);
    expect(stdout).toContain('verify js-masking: pass: every invariant held over 60 steps');
  });

  it('passes the Python example, started as a process', async () => {
    const { code, stdout } = await cli(['verify', '--', 'python3', join(examples, 'python-policy', 'masking.py')]);
    expect(code).toBe(0);
    expect(stdout).toContain('masking.py: pass: every invariant held over 60 steps');
  });

  it('fails the broken example (a result dropped, its call kept), naming the step and the message ids', async () => {
    const { code, stdout, stderr } = await cli(['verify', join(examples, 'broken-policy', 'drops-results.mjs')]);
    expect(code).toBe(1);
    // Each dropped result breaks the pairing and makes a request both providers refuse, in their words.
    expect(stdout).toContain('verify drops-results: FAIL: 70 problems');
    expect(stdout).toContain(
      'call-result-pairs  step 3: call fc-1 (message m0003) sent without its recorded result m0004  [ids: m0003, m0004] (and at 56 later steps)',
    );
    expect(stdout).toContain(
      "invalid-request    step 3: OpenAI refuses the request (400): An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: fc-1  [ids: m0003] (and at 56 later steps)",
    );
    expect(stderr).toContain('verify drops-results: 1812 invariant violations');
  });

  it('fails a policy that edits a message it made itself in place (in-place-edit), which an unfrozen message would let through', async () => {
    const policy = resolve(import.meta.dirname, '../../fixtures/bad/policies/edits-own-note.mjs');
    const { code, stdout, stderr } = await cli(['verify', policy]);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /in-place-edit +step 1: strategy module .*edits-own-note\.mjs edited a message in place in prepare \(Cannot assign to read only property 'text'/,
    );
    expect(stderr).toContain('verify edits-own-note: 1 invariant violation');
  });

  it('exits 2 on options the strategy refuses, module or process', async () => {
    const module = await cli(['verify', '--options', '{"keepLast":-1}', join(examples, 'js-policy', 'masking.mjs')]);
    expect(module.code).toBe(2);
    expect(module.stderr).toContain('(field strategies.masking.options.keepLast): expects a whole number >= 0');
    const process = await cli(['verify', '--options', '{"keepLast":-1}', '--', 'python3', join(examples, 'python-policy', 'masking.py')]);
    expect(process.code).toBe(2);
    expect(process.stderr).toContain('reported an error in options.keepLast: expects a whole number >= 0');
  });

  it('exits 2 on a module that does not exist or exports no strategy', async () => {
    const missing = await cli(['verify', join(examples, 'no-such-policy.mjs')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no strategy module at');
    const notStrategy = await cli(['verify', resolve(import.meta.dirname, '../../fixtures/policies/misbehaving.mjs')]);
    expect(notStrategy.code).toBe(2);
    expect(notStrategy.stderr).toContain('exports no strategy: export it as `default` or as `strategy`');
  });

  it('fails a policy process that crashes while verified', async () => {
    const { code, stdout } = await cli([
      'verify',
      '--strategy-timeout',
      '2',
      '--',
      'node',
      resolve(import.meta.dirname, '../../fixtures/policies/misbehaving.mjs'),
      'exit',
      '2',
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain('failed             step 2: the strategy failed: policy `node');
    expect(stdout).toContain('exited (code 3) while ctxbench waited for the context of step 2');
  });
});
