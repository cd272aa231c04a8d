import { escapeControl } from '../control-chars.js';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for HTML element content and quoted attribute values alike; control characters
 * (ESC sequences) are shown escaped. Every string that can
 * come from a transcript, a scenario or a model goes through here before it reaches the page.
 */
export function escapeHtml(text: string): string {
  return escapeControl(text, '\t\n\r').replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** Decimals a number keeps in embedded JSON: plenty for a chart, and small. */
const EMBED_DECIMALS = 4;

/**
 * JSON for a `<script type="application/json">` block. `<`, `>` and `&` become `\u003c`-style
 * escapes (still valid JSON for the same value), so `</script>` or `<!--` in transcript text can
 * never end the block; U+2028/U+2029 are escaped for older JavaScript parsers. Fractions keep
 * four decimals, so a page rendered from a saved result.json equals the one the run wrote.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value, roundFraction).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Library code made safe to inline in a `<script>` element: `</script` and `<!--` cannot appear
 * (the HTML parser would end or confuse the element), and the source-map comment is dropped so
 * that developer tools never try to fetch a file that is not there. Line breaks are normalised as
 * the HTML parser would, so a hash of the result matches what the browser sees.
 */
export function inlineScript(code: string): string {
  return code
    .replace(/\r\n?/g, '\n')
    .replace(/^\/\/# sourceMappingURL=.*$/gm, '')
    .replace(/<\/(script)/gi, '<\\/$1')
    .replace(/<!--/g, '<\\!--')
    .trimEnd();
}

function roundFraction(_key: string, value: unknown): unknown {
  if (typeof value !== 'number' || Number.isInteger(value) || !Number.isFinite(value)) return value;
  return Number(value.toFixed(EMBED_DECIMALS));
}
