import { describe, expect, it } from 'vitest';
import { embedJson, escapeHtml, inlineScript } from '../../src/report/html-escape.js';
import { renderHtml } from '../../src/report/html.js';
import { readChartScript } from '../../src/report/html-chart-script.js';
import { buildHostileResult, CLOSE, IMAGE, SCRIPT } from './hostile-result.js';

/** The page without the inlined Chart.js library, whose code is not ours to inspect. */
function ownMarkup(): string {
  const html = renderHtml(buildHostileResult())[0]?.contents ?? '';
  const library = inlineScript(readChartScript());
  expect(html).toContain(library);
  return html.replace(library, '');
}

describe('escaping in the HTML report', () => {
  const html = ownMarkup();

  it('renders markup from transcripts and models as text: no raw <script> or <img> anywhere', () => {
    expect(html).not.toContain('<script>window.__pwned');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('onerror="');
    expect(html).not.toMatch(/<\/script><script>window/);
    // Only the page's own three script elements remain.
    expect(html.match(/<script\b/g)).toHaveLength(3);
  });

  it('shows the hostile strings escaped in text and attributes', () => {
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=&quot;window.__pwned = 1&quot;&gt;');
    // Strategy labels, event reasons and details, crash messages, probe questions and answers.
    for (const text of [
      `rolling ${SCRIPT}`,
      `full${IMAGE}`,
      `why ${SCRIPT}`,
      `detail ${IMAGE}`,
      `crash ${IMAGE}`,
      `What is ${SCRIPT}?`,
      `expected ${IMAGE}`,
      `answer ${CLOSE}`,
    ]) {
      expect(html).toContain(escapeHtml(text));
    }
  });

  it('embeds chart data as JSON that cannot close its script element, and keeps every string intact', () => {
    const block = /<script type="application\/json" id="ctxbench-charts">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    expect(block).not.toMatch(/[<>]/);
    const labels = Object.values(JSON.parse(block) as Record<string, { config: { data: { datasets: { label: string }[] } } }>).flatMap((spec) =>
      spec.config.data.datasets.map((dataset) => dataset.label),
    );
    expect(labels).toContain(`rolling ${SCRIPT}`);
    expect(labels).toContain(`full${IMAGE}`);
  });
});

describe('escape helpers', () => {
  it('escapeHtml escapes the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('embedJson escapes <, >, & and line separators and still parses to the same value', () => {
    const value = { text: '</script><!-- & \u2028 \u2029' };
    const embedded = embedJson(value);
    expect(embedded).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(embedded)).toEqual(value);
  });

  it('inlineScript neutralises </script and <!--, drops source maps, normalises line breaks', () => {
    const code = 'var a = "</script>";\r\nvar b = "<!--";\r\n//# sourceMappingURL=x.js.map\n';
    expect(inlineScript(code)).toBe('var a = "<\\/script>";\nvar b = "<\\!--";');
  });
});
