import { describe, expect, it } from 'vitest';
import { findSecrets, hasSecret, redactText, redactValue, redactWhereSecret } from '../../src/redact/index.js';
import { PLANTED } from './planted.js';
import { SECRET_RULES, tokenRuns } from '../../src/redact/patterns.js';

describe('redactText: one secret of each kind', () => {
  it.each(PLANTED.map((p) => [p.kind, p] as const))('masks a %s with its typed marker', (kind, planted) => {
    const out = redactText(planted.text);
    expect(out).not.toContain(planted.secret);
    expect(out).toContain(`[redacted:${kind}]`);
    expect(findSecrets(planted.text).map((s) => s.kind)).toContain(kind);
  });

  it('keeps the non-secret part of a credential: the scheme, the parameter, the variable name', () => {
    expect(redactText('Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0zz')).toBe('Authorization: Bearer [redacted:bearer-token]');
    expect(redactText('GET /v1?alt=json&key=abcdef123456')).toBe('GET /v1?alt=json&key=[redacted:query-secret]');
    expect(redactText('AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toBe('AWS_SECRET_ACCESS_KEY=[redacted:secret-assignment]');
    expect(redactText('postgres://admin:S3cr3tPassw0rd@db:5432/app')).toBe('postgres://admin:[redacted:url-credentials]@db:5432/app');
  });

  it('masks a PEM block written with JSON-escaped line breaks, as result.json holds it', () => {
    const escaped = JSON.stringify('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n');
    expect(redactText(escaped)).toBe('"[redacted:private-key]\\n"');
  });

  it('is idempotent: a marker matches no rule', () => {
    const all = PLANTED.map((p) => p.text).join('\n');
    const once = redactText(all);
    expect(redactText(once)).toBe(once);
  });
});

describe('redactText: legitimate data stays', () => {
  it.each([
    ['a git SHA', 'commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it'],
    ['a SHA-256 digest', 'sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
    ['a UUID with a tool id', '04b0eca8-5e99-4b0b-a941-6563defeedf0/toolu_01UqCHTBxXpjAAb3yarDtgNW'],
    ['a long path', '/home/user/projects/SomeComponent2/src/components/ButtonGroupHandler3.tsx'],
    ['a snake-case name', 'QUERY_SERVICE_SIGNING_KEY_ID_V2=kid_lsrfj5a94l'],
    ['prose about a basic setup', 'a basic implementation of the Authorization header'],
    ['a task id', 'task-0123456789abcdefghijklmnop'],
    ['a token count', '"retrievalTokens": 12345678, "max_tokens": 8192'],
    ['a password flag without a value', 'password: required'],
  ])('%s', (_name, text) => {
    expect(redactText(text)).toBe(text);
    expect(hasSecret(text)).toBe(false);
  });
});

describe('redactValue', () => {
  it('redacts every string of a nested value and keeps numbers, booleans, keys and order', () => {
    const value = { a: 1, b: ['ok', 'Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0zz'], c: { ok: true, key: 'AKIAIOSFODNN7EXAMPLE' } };
    expect(redactValue(value)).toEqual({ a: 1, b: ['ok', 'Bearer [redacted:bearer-token]'], c: { ok: true, key: '[redacted:aws-access-key]' } });
  });
});

describe('findSecrets: each scan from the start', () => {
  it('finds every secret of a text whatever the texts scanned before it, each kind alone and mixed', () => {
    // The rules' patterns are shared by every scan: one must not start where the last one stopped.
    const long = PLANTED.map((p) => `${'prose '.repeat(40)}${p.text}`).join('\n');
    const expected = PLANTED.map((p) => findSecrets(p.text).map((s) => [s.kind, p.text.slice(s.start, s.end)]));
    expect(findSecrets(long).length).toBeGreaterThanOrEqual(PLANTED.length);
    PLANTED.forEach((p, i) => {
      findSecrets(`${long}\n${i}`);
      expect(findSecrets(`${p.text} `).map((s) => [s.kind, `${p.text} `.slice(s.start, s.end)])).toEqual(expected[i]);
      expect(expected[i]?.some(([kind, text]) => kind === p.kind && text?.includes(p.secret))).toBe(true);
    });
    expect(SECRET_RULES.map((rule) => rule.pattern.lastIndex).every((at) => at === 0)).toBe(true);
  });
});

describe('redactWhereSecret', () => {
  it('keeps a value without secrets as it is, and redacts a copy of one that holds one, however deep', () => {
    const clean = { a: ['plain', { b: 'words' }], n: 3 };
    expect(redactWhereSecret(clean)).toBe(clean);
    const planted = PLANTED[0] as (typeof PLANTED)[number];
    const dirty = { a: ['plain', { b: planted.text }], n: 3 };
    const redacted = redactWhereSecret(dirty);
    expect(redacted).not.toBe(dirty);
    expect(redacted).toStrictEqual(redactValue(dirty));
    expect(JSON.stringify(redacted)).not.toContain(planted.secret);
    expect(dirty.a[1]).toStrictEqual({ b: planted.text });
  });
});

describe('the token-run scan', () => {
  it('finds exactly the runs the pattern from every position finds, on words, runs, padding and runs that touch', () => {
    // The reference: every run of 32 token characters or more, from any position, with up to two `=`.
    const everyPosition = /[A-Za-z0-9+/_-]{32,}={0,2}/g;
    const alphabet = 'aZ09+/_-=. \né';
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const texts = [
      '',
      'x'.repeat(31),
      'x'.repeat(32),
      `${'x'.repeat(31)} ${'y'.repeat(32)}==${'z'.repeat(40)}===${'w'.repeat(33)}`,
      `prose with words of every length ${'Q'.repeat(31)}.${'R'.repeat(64)}=`,
      `${'a'.repeat(32)}=${'b'.repeat(32)}==${'c'.repeat(31)}`,
    ];
    for (let t = 0; t < 300; t++) {
      let text = '';
      const size = 20 + Math.floor(next() * 600);
      while (text.length < size)
        text +=
          next() < 0.7
            ? (alphabet[Math.floor(next() * 4)] as string).repeat(1 + Math.floor(next() * 45))
            : (alphabet[Math.floor(next() * alphabet.length)] as string);
      texts.push(text);
    }
    let found = 0;
    for (const text of texts) {
      const expected = [...text.matchAll(everyPosition)].map((m) => [m.index, m.index + m[0].length]);
      expect([...tokenRuns(text)].map(({ start, end }) => [start, end])).toEqual(expected);
      found += expected.length;
    }
    expect(found).toBeGreaterThan(300);
  });
});

describe("a rule's required string", () => {
  it('is in every match of its pattern, so a text without it has none', () => {
    const texts = [...PLANTED.map((p) => p.text), 'DATABASE_URL=postgres://admin:S3cr3tPassw0rd@db:5432/app', 'git clone https://u:p4ss@host/r'];
    for (const rule of SECRET_RULES.filter((r) => r.requires !== undefined)) {
      const matches = texts.flatMap((text) => [...text.matchAll(rule.pattern)].map((m) => m[0]));
      expect(matches.length).toBeGreaterThan(0);
      for (const match of matches) expect(match).toContain(rule.requires);
    }
    expect(redactText('postgres//admin:S3cr3tPassw0rd@db')).toBe('postgres//admin:S3cr3tPassw0rd@db');
  });
});
