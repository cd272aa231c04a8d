import type { Browser, CdpEvent } from './cdp.js';

/** A laptop screen. */
export const VIEWPORT = { width: 1366, height: 768 };

/** What a page did while it loaded: every request, console error and uncaught exception. */
export interface PageReport {
  requests: string[];
  errors: string[];
  canvases: { chart: string; width: number; height: number; painted: number }[];
  /** The full page as a PNG. */
  screenshot: Buffer;
  /** The first laptop screen of the page as a PNG: what a reader sees on opening it. */
  firstScreen: Buffer;
  evaluate(expression: string): Promise<unknown>;
}

/**
 * Opens `url` in a fresh tab at laptop size, waits for the load event, and reports the requests
 * the page made, its console errors and exceptions, how many pixels each chart canvas painted,
 * and a full-page screenshot.
 */
export async function inspectPage(browser: Browser, url: string, viewport: { width: number; height: number } = VIEWPORT): Promise<PageReport> {
  const { targetId } = (await browser.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
  const { sessionId } = (await browser.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
  const send = (method: string, params: Record<string, unknown> = {}) => browser.send(method, params, sessionId);
  for (const domain of ['Page', 'Runtime', 'Network', 'Log']) await send(`${domain}.enable`);
  await send('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor: 1, mobile: false });
  const firstEvent = browser.events.length;
  const loaded = browser.waitFor('Page.loadEventFired', 30_000);
  await send('Page.navigate', { url });
  await loaded;
  const evaluate = async (expression: string): Promise<unknown> => {
    const reply = (await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })) as {
      result: { value?: unknown };
      exceptionDetails?: { text: string };
    };
    if (reply.exceptionDetails !== undefined) throw new Error(`evaluate failed: ${reply.exceptionDetails.text}`);
    return reply.result.value;
  };
  // Let layout settle (responsive charts redraw once their box is measured).
  await evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  const canvases = (await evaluate(PAINTED_PIXELS)) as PageReport['canvases'];
  const metrics = (await send('Page.getLayoutMetrics')) as { cssContentSize: { width: number; height: number } };
  const clip = { x: 0, y: 0, width: viewport.width, height: Math.ceil(metrics.cssContentSize.height), scale: 1 };
  const shot = (await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip })) as { data: string };
  const first = (await send('Page.captureScreenshot', { format: 'png' })) as { data: string };
  const events = browser.events.slice(firstEvent).filter((event) => event.sessionId === sessionId);
  return {
    requests: requestsOf(events),
    errors: errorsOf(events),
    canvases,
    screenshot: Buffer.from(shot.data, 'base64'),
    firstScreen: Buffer.from(first.data, 'base64'),
    evaluate,
  };
}

/** Counts the non-transparent pixels of every chart canvas, in the page. */
const PAINTED_PIXELS = `Array.from(document.querySelectorAll('canvas')).map((canvas) => {
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let painted = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted += 1;
  return { chart: canvas.dataset.chart || '', width: canvas.width, height: canvas.height, painted };
})`;

function requestsOf(events: readonly CdpEvent[]): string[] {
  return events.filter((event) => event.method === 'Network.requestWillBeSent').map((event) => String((event.params.request as { url: string }).url));
}

function errorsOf(events: readonly CdpEvent[]): string[] {
  return events.flatMap((event) => {
    // CDP event parameters are untyped JSON; the messages below only print them.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const params = event.params as Record<string, any>;
    if (event.method === 'Runtime.exceptionThrown') return [`exception: ${params.exceptionDetails?.exception?.description ?? params.exceptionDetails?.text}`];
    if (event.method === 'Runtime.consoleAPICalled' && ['error', 'assert', 'warning'].includes(String(params.type))) {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- console arguments as CDP serialised them
      return [`console.${params.type}: ${(params.args as { value?: unknown; description?: string }[]).map((a) => a.value ?? a.description).join(' ')}`];
    }
    if (event.method === 'Log.entryAdded' && params.entry?.level === 'error') return [`log (${params.entry.source}): ${params.entry.text}`];
    return [];
  });
}
