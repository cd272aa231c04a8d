/**
 * Control characters in text from a transcript, a scenario or a model: an ESC sequence in a
 * model's name would clear the terminal or set its title when a table prints, and lands raw in
 * Markdown and CSV. Every terminal, Markdown and CSV output passes its text through here.
 */

// The characters are what this must match: C0 controls, DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;
// eslint-disable-next-line no-control-regex
const ESCAPED = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

/**
 * `text` with every C0 control, DEL and C1 control written as a visible `\x1b`-style escape, but
 * for those in `keep` (by default tab and newline, which the formats allow between lines and cells).
 */
export function escapeControl(text: string, keep = '\t\n'): string {
  // Most texts hold no control but tabs and newlines, which `replace` copies whole all the same (a CSV part of MBs).
  if (keep === '\t\n' && !ESCAPED.test(text)) return text;
  return text.replace(CONTROL, (char) => (keep.includes(char) ? char : `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`));
}

/**
 * A copy of `value` with every string (keys included) passed through `escapeControl`: a result
 * or a report made safe for a terminal before its rendering adds colours of its own.
 */
export function escapeControlDeep<T>(value: T, keep = '\t\n'): T {
  if (typeof value === 'string') return escapeControl(value, keep) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => escapeControlDeep(item, keep)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [escapeControl(key, keep), escapeControlDeep(item, keep)])) as T;
}
