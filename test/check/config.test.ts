import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DEFAULT_CHECK_RULES, loadCheckConfig, parseCheckConfig, resolveCheckRules } from '../../src/check/config.js';
import { InputError } from '../../src/errors.js';
import { writeFiles } from '../helpers/temp.js';

function errorOf(text: string): InputError {
  try {
    parseCheckConfig(text, 'check.yaml');
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('check config', () => {
  it('reads every field; leaves out what is not given', () => {
    const config = parseCheckConfig(
      [
        'maxTokenIncrease: 10',
        'maxRecallDrop: 5',
        'decision: interval',
        'resamples: 500',
        'overrides:',
        '  - strategy: tri-modal',
        '    maxTokenIncrease: 20',
      ].join('\n'),
      'check.yaml',
    );
    expect(config).toEqual({
      maxTokenIncrease: 10,
      maxRecallDrop: 5,
      decision: 'interval',
      resamples: 500,
      overrides: [{ strategy: 'tri-modal', maxTokenIncrease: 20 }],
    });
    expect(parseCheckConfig('', 'check.yaml')).toEqual({});
  });

  it.each([
    { name: 'a wrong type', text: 'maxRecallDrop: 2\nmaxTokenIncrease: lots\n', line: 2, field: 'maxTokenIncrease' },
    { name: 'a negative threshold', text: 'maxTokenIncrease: -1\n', line: 1, field: 'maxTokenIncrease' },
    { name: 'an unknown key', text: 'maxRecallDrop: 2\nmaxTokenRise: 5\n', line: 2, field: 'maxTokenRise' },
    { name: 'an unknown key in an override', text: 'overrides:\n  - strategy: full\n    window: 3\n', line: 3, field: 'overrides.0.window' },
    { name: 'an unknown decision', text: 'decision: maybe\n', line: 1, field: 'decision' },
    { name: 'a confidence of 1', text: 'confidence: 1\n', line: 1, field: 'confidence' },
  ])('names file, line and field for $name', ({ text, line, field }) => {
    const error = errorOf(text);
    expect(error.location).toEqual({ file: 'check.yaml', line, field });
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(`check.yaml:${line} (field ${field})`);
  });

  it('names the line of a YAML syntax error', () => {
    expect(errorOf('maxTokenIncrease: 5\noverrides: [\n').location).toMatchObject({ file: 'check.yaml', line: expect.any(Number) });
  });

  it('layers the defaults, the file and the flags, in that order', () => {
    expect(resolveCheckRules()).toEqual(DEFAULT_CHECK_RULES);
    const rules = resolveCheckRules({ maxTokenIncrease: 10, maxRecallDrop: 4 }, { maxTokenIncrease: 1 });
    expect(rules).toMatchObject({ maxTokenIncrease: 1, maxRecallDrop: 4, maxRetentionDrop: DEFAULT_CHECK_RULES.maxRetentionDrop });
  });

  it('loads a file, and reports one that cannot be read', async () => {
    const dir = writeFiles({ 'check.yaml': 'maxRetentionDrop: 7\n' });
    expect(await loadCheckConfig(join(dir, 'check.yaml'))).toEqual({ maxRetentionDrop: 7 });
    await expect(loadCheckConfig(join(dir, 'nope.yaml'))).rejects.toThrow(/nope\.yaml: cannot read check config: ENOENT/);
  });
});
