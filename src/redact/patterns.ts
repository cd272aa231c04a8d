/**
 * The shapes of secrets the redactor masks, most specific first: a provider key is named by its
 * provider before the generic rules (assignments, high entropy) see what is left. Each rule finds
 * spans of text; `keep` (when set) is the length of a prefix of the match that is not secret and
 * stays (`Bearer `, `password=`, `?key=`), so a reader still sees what was there.
 *
 * Every pattern is written to match inside rendered artifacts as well as raw text: JSON escapes
 * (`\n`, `\"`) and HTML escapes never occur inside a key's own characters, and a PEM block is
 * matched across real or escaped line breaks alike.
 */
export interface SecretRule {
  kind: string;
  pattern: RegExp;
  /** Length of the non-secret prefix of the match (a captured group 1), kept as written. */
  keepGroup?: boolean;
  /** A further test of the matched secret, for shapes ordinary words can take. */
  accept?: (secret: string) => boolean;
  /**
   * A string every match holds, for a pattern that would otherwise be tried from nearly every
   * character: a text without it is not scanned with the pattern (the same matches, none).
   */
  requires?: string;
}

// Not preceded by a key character: `task-…` is not `sk-…`.
const START = String.raw`(?<![A-Za-z0-9_\-])`;
const END = String.raw`(?![A-Za-z0-9_\-])`;
const PRIVATE_PEM = String.raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`;

export const SECRET_RULES: readonly SecretRule[] = [
  {
    kind: 'private-key',
    // A whole block; a block cut short (no END line) is masked up to where its base64 stops.
    pattern: new RegExp(String.raw`${PRIVATE_PEM}(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\:,-]*)`, 'g'),
  },
  { kind: 'anthropic-key', pattern: new RegExp(String.raw`${START}sk-ant-[A-Za-z0-9_\-]{20,}`, 'g') },
  { kind: 'openai-key', pattern: new RegExp(String.raw`${START}sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`, 'g') },
  { kind: 'stripe-key', pattern: new RegExp(String.raw`${START}(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})`, 'g') },
  { kind: 'google-api-key', pattern: new RegExp(String.raw`${START}AIza[0-9A-Za-z_\-]{35}`, 'g') },
  // An OAuth access token (`ya29.…`) and a refresh token (`1//0…`) of Google accounts.
  { kind: 'google-oauth-token', pattern: new RegExp(String.raw`${START}(?:ya29\.[A-Za-z0-9_\-]{20,}|1//0[A-Za-z0-9_\-]{30,})`, 'g') },
  { kind: 'github-token', pattern: new RegExp(String.raw`${START}(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`, 'g') },
  // Personal, deploy, runner, project, CI-job, feed … tokens: `glpat-` and its siblings.
  { kind: 'gitlab-token', pattern: new RegExp(String.raw`${START}gl(?:pat|dt|rt|ptt|soat|cbt|imt|ffct|oas|agent|ft)-[A-Za-z0-9_\-]{20,}`, 'g') },
  { kind: 'slack-token', pattern: new RegExp(String.raw`${START}(?:xox[abposre]-[A-Za-z0-9\-]{10,}|xapp-\d-[A-Za-z0-9\-]{10,})`, 'g') },
  // A webhook URL is its own credential: whoever has it posts to the channel. The host stays.
  { kind: 'slack-webhook', pattern: /(https?:\/\/hooks\.slack\.com\/)(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{16,}/g, keepGroup: true },
  {
    kind: 'discord-webhook',
    pattern: /(https?:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/)\d+\/[A-Za-z0-9_-]{20,}/g,
    keepGroup: true,
  },
  { kind: 'twilio-key', pattern: new RegExp(String.raw`${START}SK[0-9a-fA-F]{32}${END}`, 'g') },
  { kind: 'sendgrid-key', pattern: new RegExp(String.raw`${START}SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}`, 'g') },
  { kind: 'npm-token', pattern: new RegExp(String.raw`${START}npm_[A-Za-z0-9]{36}${END}`, 'g') },
  { kind: 'pypi-token', pattern: new RegExp(String.raw`${START}pypi-[A-Za-z0-9_\-]{40,}`, 'g') },
  { kind: 'huggingface-token', pattern: new RegExp(String.raw`${START}hf_[A-Za-z0-9]{30,}${END}`, 'g') },
  { kind: 'digitalocean-token', pattern: new RegExp(String.raw`${START}do[por]_v1_[a-f0-9]{64}`, 'g') },
  { kind: 'shopify-token', pattern: new RegExp(String.raw`${START}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`, 'g') },
  // Azure Storage / Service Bus / Event Hubs connection strings: the key after its name stays out.
  { kind: 'azure-key', pattern: /(\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)=)[^;\s"'<>\\]{20,}/g, keepGroup: true },
  { kind: 'aws-access-key', pattern: new RegExp(String.raw`${START}(?:AKIA|ASIA)[0-9A-Z]{16}${END}`, 'g') },
  { kind: 'jwt', pattern: new RegExp(String.raw`${START}eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`, 'g') },
  { kind: 'bearer-token', pattern: /(\bbearer\s+)[A-Za-z0-9._~+/=-]{16,}/gi, keepGroup: true },
  // `Basic <base64>` is a word too ("basic implementation"): only when it decodes to `user:pass`.
  { kind: 'basic-credentials', pattern: /(\bbasic\s+)[A-Za-z0-9+/]{8,}={0,2}/gi, keepGroup: true, accept: isBasicCredential },
  // Tried from every word's start, so only in a text with a `://` (0.24 s of a 477-log corpus's CSV files, which had none).
  { kind: 'url-credentials', pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"'<>]+:)[^\s@/"'<>]+(?=@)/gi, keepGroup: true, requires: '://' },
  {
    kind: 'query-secret',
    pattern: /([?&](?:key|api_key|apikey|api-key|token|access_token|auth|sig|signature|secret|password|client_secret)=)[^&\s"'#<>\\]{6,}/gi,
    keepGroup: true,
  },
  {
    // `AWS_SECRET_ACCESS_KEY=…`, `"password": "…"`, `api_key: …`: the name stays, the value goes.
    kind: 'secret-assignment',
    pattern:
      /((?:secret|password|passwd|api[_-]?key|access[_-]?key|auth[_-]?token|access[_-]?token|private[_-]?key|client[_-]?secret)\\?["']?\s*[:=]\s*\\?["']?)[^\s"'&,;<>\\[\]{}()]{8,}/gi,
    keepGroup: true,
    accept: (value) => !/^\d+$/.test(value) && !/^(?:true|false|null|undefined|none|required|optional|string)$/i.test(value),
  },
];

function isBasicCredential(encoded: string): boolean {
  const decoded = Buffer.from(encoded, 'base64').toString('latin1');
  return /^[\x20-\x7e]+:[\x20-\x7e]+$/.test(decoded);
}

/** Shortest run of token characters the entropy rule looks at. */
const MIN_ENTROPY_LENGTH = 32;
/** Bits per character above which a run is a random token (English identifiers stay near 3.5). */
const MIN_BITS_PER_CHAR = 4.1;

/**
 * A long random-looking token (the last resort, for keys of no known shape): at least
 * `MIN_ENTROPY_LENGTH` characters of upper and lower case letters and digits, with high Shannon
 * entropy. Not masked, as legitimate data: hex strings (git SHAs, SHA-256 digests, UUIDs; an
 * agent log is full of them and probes ask about them), and paths (`/`-separated words).
 */
export function isHighEntropyToken(token: string): boolean {
  if (token.length < MIN_ENTROPY_LENGTH) return false;
  if (/^[0-9a-fA-F-]+$/.test(token)) return false;
  if (!/[a-z]/.test(token) || !/[A-Z]/.test(token) || !/[0-9]/.test(token)) return false;
  if (/^sha(?:256|384|512)-/.test(token)) return false;
  // `<session uuid>/<tool id>`, `a/b/c`: judged piece by piece, so ids joined into a path stay.
  if (token.includes('/')) return token.split('/').some((segment) => isHighEntropyToken(segment));
  // SNAKE_CASE or kebab-case words with a number in them are names, not keys.
  const words = token.split(/[_-]/);
  if (words.length >= 4 && words.every((word) => word.length < 16)) return false;
  return bitsPerChar(token) >= MIN_BITS_PER_CHAR;
}

function bitsPerChar(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Whether each ASCII character is one a random token is made of (base64, base64url: `A-Za-z0-9+/_-`). */
const TOKEN_CHAR = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') TOKEN_CHAR[char.charCodeAt(0)] = 1;

const isTokenChar = (code: number): boolean => code < 128 && TOKEN_CHAR[code] === 1;

/**
 * The runs of token characters of `MIN_ENTROPY_LENGTH` or more in `text`, each whole with up to
 * two `=` after it (base64 padding), in order: the matches of
 * `/(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,}={0,2}/g`. Found by a scan that skips ahead: from a
 * run's possible start it reads the 32nd character first, and back from there to the last
 * character that is no token's, where the next possible start is, so a text of short words is
 * read about once per word (the pattern read every character: 0.66 s of a 477-log corpus's CSV
 * files, this a fifth of that).
 */
export function* tokenRuns(text: string): Generator<{ start: number; end: number }> {
  const length = text.length;
  let at = 0;
  while (at + MIN_ENTROPY_LENGTH <= length) {
    // `at` is the text's start or follows a character that is no token's (or the run before it ends there).
    let back = at + MIN_ENTROPY_LENGTH - 1;
    while (back >= at && isTokenChar(text.charCodeAt(back))) back--;
    if (back >= at) {
      at = back + 1;
      continue;
    }
    let end = at + MIN_ENTROPY_LENGTH;
    while (end < length && isTokenChar(text.charCodeAt(end))) end++;
    const padding = end;
    while (end < length && end - padding < 2 && text.charCodeAt(end) === 61) end++;
    yield { start: at, end };
    at = end;
  }
}
