import { describe, expect, it } from 'vitest';
import { CASSETTE_FORMAT, parseCassette, scrubSecrets } from '../../src/providers/cassette.js';

describe('scrubSecrets', () => {
  const interaction = {
    scope: 'https://api.openai.com:443',
    method: 'POST',
    path: '/v1beta/models/gemini-2.5-flash:generateContent?key=AIzaSyA-1234567890abcdefghijklmnopqrstu&alt=json',
    status: 401,
    response: { error: { message: 'Incorrect API key provided: my-own-key-42. You can find your API key at …' } },
    rawHeaders: {
      'content-type': 'application/json',
      'set-cookie': ['a=1', 'b=2'],
      'openai-organization': 'org-xyz',
      'x-note': 'also sk-proj-abcdefghijklmnop1234 here',
    },
  };

  it('replaces known keys anywhere, key-shaped strings, key= query values and account headers', () => {
    const scrubbed = scrubSecrets(interaction, ['my-own-key-42']);
    expect(scrubbed.response.error.message).toBe('Incorrect API key provided: [REDACTED]. You can find your API key at …');
    expect(scrubbed.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent?key=[REDACTED]&alt=json');
    expect(scrubbed.rawHeaders).toEqual({
      'content-type': 'application/json',
      'set-cookie': ['[REDACTED]', '[REDACTED]'],
      'openai-organization': '[REDACTED]',
      'x-note': 'also [REDACTED] here',
    });
    expect(JSON.stringify(scrubbed)).not.toMatch(/my-own-key|AIzaSy|sk-proj|org-xyz/);
  });

  it('leaves everything else as it was and does not change its input', () => {
    const copy = structuredClone(interaction);
    const scrubbed = scrubSecrets(interaction, []);
    expect(interaction).toEqual(copy);
    expect(scrubbed.scope).toBe(interaction.scope);
    expect(scrubbed.status).toBe(401);
    expect(scrubbed.rawHeaders['content-type']).toBe('application/json');
  });
});

describe('parseCassette', () => {
  it('reads a cassette and names the field of a bad one', () => {
    const good = {
      format: CASSETTE_FORMAT,
      version: 1,
      provider: 'openai',
      waits: [1002],
      interactions: [{ scope: 'http://127.0.0.1:1', method: 'GET', path: '/v1/models', status: 200, response: {} }],
    };
    expect(parseCassette(JSON.stringify(good), 'c.json').waits).toEqual([1002]);
    expect(() => parseCassette(JSON.stringify({ ...good, waits: [-1] }), 'c.json')).toThrow(/c\.json \(field waits\.0\)/);
    expect(() => parseCassette('{', 'c.json')).toThrow(/c\.json: not JSON/);
  });
});
