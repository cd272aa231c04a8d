import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildJudgeRequest, parseJudgeReply } from '../../src/probes/judge.js';
import type { Probe } from '../../src/transcript/types.js';

const rubric = readFileSync('docs/judge-rubric.md', 'utf8');
const probe: Probe = {
  id: 'port',
  kind: 'recall',
  question: 'Which port does the server listen on?',
  expected: { anyOf: ['8437'] },
  evidence: ['m04'],
  ask: ['end'],
};

describe('buildJudgeRequest', () => {
  it('sends the rubric as the instruction and the probe, truth and answer as one message', () => {
    const request = buildJudgeRequest(probe, 'It listens on 8437.', rubric);
    expect(request.purpose).toBe('judge');
    expect(request.instruction).toContain('artifactTrail');
    expect(request.instruction).not.toContain('# Probe judge rubric'); // the preamble is for people
    expect(request.messages).toHaveLength(1);
    const text = request.messages[0]?.text ?? '';
    expect(text).toContain(probe.question);
    expect(text).toContain('"8437"');
    expect(text).toContain('It listens on 8437.');
    expect(request.messages[0]?.role).toBe('user');
  });

  it('describes an absence as the ground truth', () => {
    const request = buildJudgeRequest({ ...probe, expected: { notInSession: true } }, '', rubric);
    expect(request.messages[0]?.text).toContain('NOT in the session');
    expect(request.messages[0]?.text).toContain('(empty answer)');
  });
});

describe('parseJudgeReply', () => {
  it('reads the four scores and their sum', () => {
    expect(parseJudgeReply('{"accuracy": 4, "completeness": 5, "continuity": 3, "artifactTrail": 2}')).toEqual({
      scores: { accuracy: 4, completeness: 5, continuity: 3, artifactTrail: 2 },
      total: 14,
    });
  });

  it('reads a fenced reply with prose and extra fields', () => {
    const reply = 'Here is my grade:\n```json\n{"accuracy":5,"completeness":5,"continuity":5,"artifact_trail":4,"rationale":"ok"}\n```';
    expect(parseJudgeReply(reply)).toEqual({ scores: { accuracy: 5, completeness: 5, continuity: 5, artifactTrail: 4 }, total: 19 });
  });

  it.each([
    ['no JSON at all', 'The answer is good.'],
    ['broken JSON', '{"accuracy": 4, '],
    ['a score out of range', '{"accuracy": 6, "completeness": 5, "continuity": 3, "artifactTrail": 2}'],
    ['a missing dimension', '{"accuracy": 4, "completeness": 5, "continuity": 3}'],
    ['a score that is not a number', '{"accuracy": "high", "completeness": 5, "continuity": 3, "artifactTrail": 2}'],
  ])('returns an error for %s', (_name, reply) => {
    const verdict = parseJudgeReply(reply);
    expect('error' in verdict && verdict.error).toMatch(/judge reply/);
  });
});
