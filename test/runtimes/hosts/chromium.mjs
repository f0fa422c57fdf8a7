// Headless Chromium, from the browser build inside @sparticuz/chromium's npm package, driven by
// playwright-core. The page and the package's files are served by request interception: nothing
// goes to the network.
import { chromiumPath } from './chromium-path.mjs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { chromium } from 'playwright-core';

const ORIGIN = 'http://sse-answer.localhost';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript' };
/** Only the built package and the suite are served. */
const SERVED = ['dist', join('test', 'runtimes')];

/** Runs the suite in a page of a fresh headless Chromium (playwright gives it a fresh profile). */
export async function runChromium({ root, timeoutMs }) {
  const browser = await chromium.launch({ executablePath: await chromiumPath(), args: FLAGS, timeout: timeoutMs });
  try {
    const page = await browser.newPage();
    // A page error or a file the page cannot load fails the run at once, not at the deadline.
    let fail;
    const failed = new Promise((_, reject) => (fail = reject));
    failed.catch(() => {});
    page.on('pageerror', (error) => fail(new Error(`the page threw: ${error.message}`)));
    await page.route(`${ORIGIN}/**`, async (route) => {
      const path = normalize(decodeURIComponent(new URL(route.request().url()).pathname)).slice(1);
      const body = SERVED.some((dir) => path.startsWith(dir + sep)) ? await readFile(join(root, path)).catch(() => undefined) : undefined;
      if (body === undefined) {
        fail(new Error(`the page asked for /${path}, which is not served`));
        return route.fulfill({ status: 404 });
      }
      return route.fulfill({ status: 200, body, contentType: TYPES[extname(path)] ?? 'application/octet-stream' });
    });
    await page.goto(`${ORIGIN}/test/runtimes/entries/browser.html`);
    const handle = await Promise.race([page.waitForFunction(() => window.suiteResult, undefined, { timeout: timeoutMs }), failed]);
    const result = await handle.jsonValue();
    if (result.error !== undefined) throw new Error(`the suite threw in the page: ${result.error}`);
    return { runtime: `chromium ${browser.version()}`, ...result };
  } finally {
    await browser.close();
  }
}
