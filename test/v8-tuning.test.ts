import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TUNED_V8_MAJOR, V8_FLAGS, tunes } from '../src/v8-tuning.js';

const run = promisify(execFile);

describe('V8_FLAGS', () => {
  it('are each known to the V8 they are set on: set in a process of their own, none is refused', async () => {
    expect(V8_FLAGS.length).toBeGreaterThan(0);
    if (!tunes(process.versions.v8)) return;
    for (const flag of V8_FLAGS) {
      // V8 refuses an unknown flag with a line on stderr and goes on: that line is what fails here.
      const { stderr } = await run(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`]);
      expect(stderr, flag).toBe('');
    }
  });

  it('tells a flag V8 does not know (the check above can fail)', async () => {
    const { stderr } = await run(process.execPath, ['-e', "require('node:v8').setFlagsFromString('--no-such-ctxbench-flag')"]);
    expect(stderr).toMatch(/unrecognized flag/);
  });

  it('are set on the V8 they were measured on only (none set here: flags are the whole process)', () => {
    expect(tunes(`${Number(TUNED_V8_MAJOR) + 1}.0.0`)).toBe(false);
    expect(tunes(`1${TUNED_V8_MAJOR}.3.0`)).toBe(false);
    expect(tunes(`${TUNED_V8_MAJOR}.3.244.8-node.38`)).toBe(true);
  });
});
