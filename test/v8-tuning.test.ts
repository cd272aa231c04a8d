import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { V8_FLAGS } from '../src/v8-tuning.js';

const run = promisify(execFile);

describe('V8_FLAGS', () => {
  it('are each known to this Node: set in a process of their own, none is refused', async () => {
    expect(V8_FLAGS.length).toBeGreaterThan(0);
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
});
