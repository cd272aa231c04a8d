import { createHash } from 'node:crypto';
import { escapeHtml } from './html-escape.js';

export interface HtmlDocument {
  title: string;
  style: string;
  /** Inline scripts, in order; each is allowed by the Content-Security-Policy by its hash alone. */
  scripts: string[];
  /** The body's markup (already escaped where it holds outside text). */
  body: string[];
}

/**
 * A self-contained HTML page: no URL to fetch, and a Content-Security-Policy that forbids every
 * request and runs only the page's own inline scripts, by hash — so even text that escaped
 * escaping could neither execute nor load anything. Pure: the same inputs give the same bytes.
 */
export function renderHtmlDocument(doc: HtmlDocument): string {
  const policy = [
    "default-src 'none'",
    `script-src ${doc.scripts.map((code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`).join(' ')}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(doc.title)}</title>`,
    '<link rel="icon" href="data:,">',
    `<style>${doc.style}</style>`,
    '</head>',
    '<body>',
    ...doc.body,
    ...doc.scripts.map((code) => `<script>${code}</script>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
