import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cjkWordsOf, indexLines, isFindable, lineFrequency, wordsOf } from '../../src/probes/findable.js';
import type { MessageEvent } from '../../src/transcript/types.js';

const messages: MessageEvent[] = [
  { type: 'message', id: 'm0', role: 'user', text: 'List the scripts, then tell me what is there.' },
  { type: 'message', id: 'm1', role: 'assistant', text: 'Listing.', toolCalls: [{ id: 'c', name: 'Glob', args: { pattern: '**/*.py' } }] },
  { type: 'message', id: 'm2', role: 'tool', text: '/repo/scripts/release.py\n/repo/scripts/check-coverage.py\n/repo/tests/test_math.py', toolCallId: 'c' },
  { type: 'message', id: 'm3', role: 'assistant', text: 'Three Python files: the release script, a coverage check and one test module.' },
];

describe('wordsOf', () => {
  it('reads a CJK run, which has no word spaces, as its overlapping character pairs', () => {
    expect(wordsOf('讓我修改 go.mod 文件')).toEqual(['讓我', '我修', '修改', 'go', 'mod', '文件']);
    expect(wordsOf('改 a')).toEqual(['改', 'a']);
    expect(wordsOf('Plain ASCII_text')).toEqual(['plain', 'ascii', 'text']);
  });

  it('finds a Chinese line by its character pairs', () => {
    const chinese: MessageEvent[] = [
      { type: 'message', id: 'c0', role: 'assistant', text: '好的，首先讓我創建一個待辦清單。' },
      { type: 'message', id: 'c1', role: 'assistant', text: '首先讓我檢查設定。' },
    ];
    const index = indexLines(chinese);
    expect(isFindable(index, 'What was the assistant setting out to do? (context: 好的, 首先)', '創建一個待辦清單', new Set([0]))).toBe(true);
    // `首先`, `先讓` are on both lines; only one holds the answer.
    expect(isFindable(index, 'What was the assistant setting out to do? (context: 首先讓)', '創建一個待辦清單', new Set([0]))).toBe(false);
  });
});

describe('findable questions (a unique span, no ranking)', () => {
  const index = indexLines(messages);

  it('indexes every line and counts the lines a word is on', () => {
    // A tool call is one line, as a reader reads it: its name and JSON arguments.
    expect(index.lines.map((l) => l.message)).toEqual([0, 1, 1, 2, 2, 2, 3]);
    expect(index.lines[2]?.raw).toBe('Glob{"pattern":"**/*.py"}');
    expect(lineFrequency(index, 'scripts')).toBe(3);
    expect(lineFrequency(index, 'release')).toBe(2);
    expect(lineFrequency(index, 'kubernetes')).toBe(0);
  });

  it('accepts a question whose anchors occur only on lines that hold the answer', () => {
    expect(isFindable(index, 'Which file of the listing? (context: check, scripts)', '/repo/scripts/check-coverage.py', new Set([2]))).toBe(true);
  });

  it('rejects an ambiguous question: its anchors are also on a line without the answer', () => {
    // `release` is on the listing's line and on the assistant's reply.
    expect(isFindable(index, 'Which release file?', '/repo/scripts/release.py', new Set([2]))).toBe(false);
    // `scripts` is on two lines of the same listing: the question cannot tell them apart.
    expect(isFindable(index, 'Which file under scripts?', '/repo/scripts/release.py', new Set([2]))).toBe(false);
  });

  it('rejects a question whose evidence message does not hold the answer on an anchored line', () => {
    const question = 'Which coverage check do the Python files include?';
    expect(isFindable(index, question, 'coverage check', new Set([2]))).toBe(false);
    expect(isFindable(index, question, 'coverage check', new Set([3]))).toBe(true);
    // Fewer anchors reach the listing's `check-coverage` line too, which does not hold the answer.
    expect(isFindable(index, 'Which coverage check?', 'coverage check', new Set([3]))).toBe(false);
  });

  it('finds nothing for words the session never uses', () => {
    expect(isFindable(index, 'Which Kubernetes namespace?', 'default', new Set([0, 1, 2, 3]))).toBe(false);
  });
});

describe('anchors on the line before the answer (a reader reads on to the next line of a message)', () => {
  const calls: MessageEvent[] = [
    {
      type: 'message',
      id: 'a',
      role: 'assistant',
      text: '',
      thinking: '**Inspecting the deployment manifest**',
      toolCalls: [
        { id: 'c1', name: 'shell', args: { command: 'cat k8s/app.yaml' } },
        { id: 'c2', name: 'shell', args: { command: 'cat k8s/db.yaml' } },
      ],
    },
    {
      type: 'message',
      id: 'b',
      role: 'assistant',
      text: 'Inspecting the logs next.',
      toolCalls: [{ id: 'c3', name: 'shell', args: { command: 'kubectl logs web' } }],
    },
  ];
  const index = indexLines(calls);

  it('accepts anchors on the prose line just before the call that holds the answer', () => {
    expect(isFindable(index, 'Which command? (context: deployment, manifest)', 'cat k8s/app.yaml', new Set([0]))).toBe(true);
  });

  it('rejects anchors that also lead to a line without the answer', () => {
    // `inspecting` is before the app.yaml call and before the logs call.
    expect(isFindable(index, 'Which command? (context: inspecting, shell)', 'cat k8s/app.yaml', new Set([0]))).toBe(false);
  });

  it('does not take anchors from a sibling call', () => {
    // The app.yaml call is the line before the db.yaml call; its words name its own file.
    expect(isFindable(index, 'Which command? (context: app, yaml)', 'cat k8s/db.yaml', new Set([0]))).toBe(false);
  });
});

describe('the simulated reader, seen only through the validity filter', () => {
  // Issue 25: a probe is valid where the reader answers it from `full`'s context (reference.ts);
  // finding, phrasing and grading stay independent of the reader.
  it('is imported by src/probes/reference.ts alone', () => {
    const dir = join(__dirname, '../../src/probes');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const importers = files.filter((file) => readFileSync(join(dir, file), 'utf8').includes('/simulator/'));
    expect(importers).toEqual(['reference.ts']);
  });
});

describe('cjkWordsOf', () => {
  it('gives the character pairs of CJK runs, and none for a text without CJK letters', () => {
    expect(cjkWordsOf('修改 go.mod 文件')).toEqual(['修改', '文件']);
    expect(cjkWordsOf('edit go.mod now')).toEqual([]);
  });
});
