import { describe, expect, it } from 'vitest';
import { readTranscript } from '../../src/transcript/read.js';
import { extractSpecifics, specificsSurvival } from '../../src/probes/specifics.js';
import { findPathsInText, readShellCommand } from '../../src/probes/message-text.js';

const fixture = 'fixtures/probes/session.ctx.jsonl';

describe('extractSpecifics', () => {
  it('collects the distinct paths, commands and numbers of the whole transcript', async () => {
    const specifics = extractSpecifics(await readTranscript(fixture));
    expect(specifics.paths).toEqual(expect.arrayContaining(['src/server/config.ts', 'tests/db/pool.test.ts', 'tests/db/setup.ts', 'scripts/migrate.py']));
    expect(specifics.commands).toEqual([
      'npm test -- --reporter=dot',
      'python scripts/migrate.py --dry-run',
      'npm test',
      'git commit -am "Mock the database in tests"',
    ]);
    expect(specifics.numbers).toEqual(expect.arrayContaining(['8437', '2.4.1', '127.0.0.1', '5432']));
    // Short numbers (counts, exit codes) are not specifics; nor are parts of a hash.
    expect(specifics.numbers).not.toContain('14');
    expect(specifics.numbers).not.toContain('12');
    expect(specifics.numbers.some((n) => '9f3c2ab'.includes(n))).toBe(false);
    expect(new Set(specifics.paths).size).toBe(specifics.paths.length);
  });
});

describe('specificsSurvival', () => {
  const specifics = { paths: ['src/a.ts', 'src/b.ts'], commands: ['npm test'], numbers: ['8437', '2.4.1', '300'] };

  it('gives the share still verbatim in the context', () => {
    const context = 'read src/a.ts\u0000ran npm test on port 8437; version 2.4.10; 3000 rows';
    expect(specificsSurvival(specifics, context)).toEqual({ paths: 0.5, commands: 1, numbers: 1 / 3 });
  });

  it('is null for a kind the session does not have', () => {
    expect(specificsSurvival({ paths: [], commands: [], numbers: ['123'] }, 'nothing')).toEqual({ paths: null, commands: null, numbers: 0 });
  });
});

describe('message text helpers', () => {
  it.each([
    ['see src/app.py:12 and ./lib/x.js.', ['src/app.py', './lib/x.js']],
    ['File "/usr/lib/python3.11/json/decoder.py", line 3', ['/usr/lib/python3.11/json/decoder.py']],
    ['https://example.com/a/b.js and and/or 1/2', []],
    ['/org/project is a library id; /usr/local/bin is a path', ['/usr/local/bin']],
  ])('finds paths in %j', (text, paths) => {
    expect(findPathsInText(text)).toEqual(paths);
  });

  it.each([
    [{ id: '1', name: 'bash', args: { command: 'npm test' } }, 'npm test'],
    [{ id: '1', name: 'exec_command', args: { cmd: ['bash', '-lc', 'pytest -x'] } }, 'pytest -x'],
    [{ id: '1', name: 'shell', args: { command: ['git', 'status'] } }, 'git status'],
    [{ id: '1', name: 'read_file', args: { command: 'npm test' } }, undefined],
  ])('reads the shell command of %j', (call, command) => {
    expect(readShellCommand(call)).toBe(command);
  });
});
