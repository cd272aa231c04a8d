import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { Browser, findChromium } from './browser/cdp.js';
import { inspectPage } from './browser/page.js';

it('scratch tiles', async () => {
  const result = JSON.parse(readFileSync('/tmp/x/result.json', 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'scratch-'));
  const [file] = renderHtml(result);
  writeFileSync(join(dir, 'index.html'), file!.contents);
  writeFileSync('/tmp/scratch-index.html', file!.contents);
  const browser = Browser.launch(findChromium()!, mkdtempSync(join(tmpdir(), 'prof-')));
  const page = await inspectPage(browser, pathToFileURL(join(dir, 'index.html')).href);
  console.log('ERRORS', page.errors, page.requests.length, page.canvases.filter((c) => c.painted < 1000));
  const sessions = browser.events.filter((e) => e.sessionId).map((e) => e.sessionId!);
  const sessionId = sessions[sessions.length - 1]!;
  const targets = (process.env['TILES'] ?? 'header.page').split('|');
  let i = 0;
  for (const selector of targets) {
    const y = (await page.evaluate(`(() => { const el = document.querySelector(${JSON.stringify(selector)}); return el ? el.getBoundingClientRect().top + window.scrollY : -1; })()`)) as number;
    if (y < 0) { console.log('missing', selector); continue; }
    for (let k = 0; k < Number(process.env['PER'] ?? 2); k++) {
      const shot = (await browser.send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip: { x: 0, y: y + k * 760, width: 1366, height: 768, scale: 1 } }, sessionId)) as { data: string };
      writeFileSync(`/tmp/tile-${i++}.png`, Buffer.from(shot.data, 'base64'));
    }
  }
  await browser.close();
}, 300_000);
