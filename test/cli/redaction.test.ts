import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../helpers/cli.js';
import { tempDir, writeFiles } from '../helpers/temp.js';
import { PLANTED } from '../redact/planted.js';
import { readTranscript } from '../../src/transcript/read.js';
import { generateProbes } from '../../src/probes/generate.js';
import { hasSecret } from '../../src/redact/index.js';

/**
 * A session whose commands, outputs (error lines: the facts probes are made of), user text and a
 * hand-written probe hold one secret of each kind. Each secret comes with the context that makes
 * it one (`password=`, `Bearer`): a bare password cannot be told from a word.
 */
function plantedSession(): string {
  const lines: unknown[] = [
    { type: 'session', id: 'planted', dialect: 'openai', model: 'gpt-4.1' },
    { type: 'message', id: 's', role: 'system', text: 'You are a coding agent.' },
    { type: 'message', id: 'u', role: 'user', text: `Set up the deploy. Credentials: ${PLANTED.map((p) => p.text).join(' | ')}` },
  ];
  PLANTED.forEach((planted, i) => {
    lines.push({
      type: 'message',
      id: `a${i}`,
      role: 'assistant',
      text: `Step ${i}: checking config ${i}.`,
      toolCalls: [{ id: `c${i}`, name: 'bash', args: { command: `echo '${planted.text}' > conf/${planted.kind}-${i}.env` } }],
    });
    lines.push({
      type: 'message',
      id: `r${i}`,
      role: 'tool',
      toolCallId: `c${i}`,
      toolName: 'bash',
      text: `wrote conf/${planted.kind}-${i}.env\n${planted.text}\nError: the service rejected ${planted.text}\nexit status ${i % 3}`,
    });
  });
  lines.push({ type: 'message', id: 'end', role: 'assistant', text: 'Deployed; the config files are in conf/.' });
  lines.push({
    type: 'probe',
    probe: {
      id: 'p-key',
      kind: 'recall',
      question: 'Which OpenAI key was exported?',
      expected: { anyOf: [PLANTED[0]?.secret] },
      evidence: ['r0'],
      ask: ['end'],
    },
  });
  return lines.map((line) => JSON.stringify(line)).join('\n');
}

function suite(): string {
  return writeFiles({
    's.yaml': 'name: planted\ntranscript: t.ctx.jsonl\nprobes: generate\nwindow: 200000\nstrategies: [full, tiered-truncation]\n',
    't.ctx.jsonl': plantedSession(),
  });
}

/** Every file under `dir`, hidden ones included, as text. */
function readAll(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) files.set(entry.name, readFileSync(join(entry.parentPath, entry.name), 'utf8'));
  }
  return files;
}

describe('redaction by default', () => {
  it('writes no planted secret to any file, and marks each with its kind', async () => {
    const dir = suite();
    const out = tempDir();
    const { code, stdout, stderr } = await cli(['run', join(dir, 's.yaml'), '--out', out, '--workers', '1']);
    expect(code).toBe(0);
    const files = readAll(out);
    expect([...files.keys()].sort()).toEqual([
      '.ctxbench-out',
      'events.csv',
      'index.html',
      'junit.xml',
      'needed.csv',
      'probes.csv',
      'result.json',
      'steps.csv',
      'steps.parquet',
      'summary.csv',
      'summary.md',
    ]);
    for (const [name, text] of [...files, ['stdout', stdout], ['stderr', stderr]] as const) {
      for (const planted of PLANTED) expect(text.includes(planted.secret), `${planted.kind} in ${name}`).toBe(false);
    }
    const result = readFileSync(join(out, 'result.json'), 'utf8');
    // Probe answers quote the passages the reader found: masked, with the kind in the marker.
    for (const kind of ['openai-key', 'bearer-token', 'secret-assignment']) expect(result, kind).toContain(`[redacted:${kind}]`);
    expect(JSON.parse(result)).not.toHaveProperty('redaction');
    expect(files.get('probes.csv')).toContain('p-key');
    // The later commands echo what the user's message held ten steps and more before: needed facts,
    // pieces of secrets that no rule tells on their own, masked by the kind their messages show.
    for (const kind of ['basic-credentials', 'url-credentials']) expect(files.get('needed.csv'), kind).toContain(`[redacted:${kind}]`);
  });

  it('--no-redact leaves them, and the result and the HTML header say so', async () => {
    const out = tempDir();
    expect((await cli(['run', join(suite(), 's.yaml'), '--out', out, '--workers', '1', '--quiet', '--no-redact', '--reports', 'json,html'])).code).toBe(0);
    const result = readFileSync(join(out, 'result.json'), 'utf8');
    expect(JSON.parse(result)).toMatchObject({ redaction: 'off' });
    expect(result).toContain(PLANTED[0]?.secret);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toMatch(/<dt>redaction<\/dt><dd>off \(--no-redact\)/);
  });

  it('redacts error messages too', async () => {
    const key = PLANTED[0]?.secret ?? '';
    const { code, stderr } = await cli(['run', join(suite(), 's.yaml'), '--out', tempDir(), '--strategies', key]);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown strategy "[redacted:openai-key]"');
    expect(stderr).not.toContain(key);
  });
});

describe('generated probes', () => {
  it('never take a secret as question or answer, and still probe the rest of the session', async () => {
    const transcript = await readTranscript(join(suite(), 't.ctx.jsonl'));
    const probes = generateProbes(transcript, { max: 50 });
    expect(probes.length).toBeGreaterThan(0);
    for (const probe of probes) {
      expect(hasSecret(probe.question), probe.question).toBe(false);
      expect(
        (probe.expected.anyOf ?? []).some((answer) => hasSecret(answer)),
        JSON.stringify(probe.expected),
      ).toBe(false);
    }
  });
});
