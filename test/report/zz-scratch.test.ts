import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { it } from 'vitest';
import { runSuite } from '../../src/engine/run-suite.js';
import { renderHtml } from '../../src/report/html.js';
import { Browser, findChromium } from './browser/cdp.js';
import { inspectPage } from './browser/page.js';

it('scratch tiles', async () => {
  const result = await runSuite({ scenarios: [resolve(import.meta.dirname, '../../scenarios')] });
  writeFileSync('/tmp/result.json', JSON.stringify(result));
  const dir = mkdtempSync(join(tmpdir(), 'scratch-'));
  const [file] = renderHtml(result);
  writeFileSync(join(dir, 'index.html'), file!.contents);
  writeFileSync('/tmp/scratch-index.html', file!.contents);
  const browser = Browser.launch(findChromium()!, mkdtempSync(join(tmpdir(), 'prof-')));
  const page = await inspectPage(browser, pathToFileURL(join(dir, 'index.html')).href);
  console.log(page.errors, page.requests, page.canvases);
  await page.evaluate("document.querySelectorAll('details.probes').forEach((d) => { d.open = true; })");
  const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
  const { targetId } = (await browser.send('Target.getTargets')) as any;
  void targetId;
  let i = 0;
  for (let y = 0; y < height; y += 760) {
    const png = (await page.evaluate(`1`)) as number; void png;
    i++;
  }
  // tiles via a second screenshot call with clip
  const sessions = browser.events.filter((e) => e.sessionId).map((e) => e.sessionId!);
  const sessionId = sessions[sessions.length - 1]!;
  i = 0;
  for (let y = 0; y < height; y += 760) {
    const shot = (await browser.send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip: { x: 0, y, width: 1366, height: Math.min(768, height - y), scale: 1 } }, sessionId)) as { data: string };
    writeFileSync(`/tmp/tile-${i++}.png`, Buffer.from(shot.data, 'base64'));
  }
  await browser.close();
}, 600_000);
