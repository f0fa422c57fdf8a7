// A measuring module of bench/ (portable-core.mjs, ab-core.mjs) in a page of headless Chromium
// (the build inside @sparticuz/chromium's npm package, driven by playwright-core). The page and
// its module are served by request interception: nothing goes to the network.
import { chromiumPath } from '../../test/runtimes/hosts/chromium-path.mjs';
import { chromium } from 'playwright-core';
import { portableBundle } from './bundle.mjs';

const ORIGIN = 'http://bench.localhost';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const PAGE = '<!doctype html><meta charset="utf-8"><title>sse-answer bench</title>';

/** `measure(settings)` of `bench/<entry>` in a fresh page; resolves with { runtime, figures }. */
export async function measureInChromium(entry, settings, timeoutMs) {
  const bundle = await portableBundle(entry);
  const browser = await chromium.launch({ executablePath: await chromiumPath(), args: FLAGS, timeout: timeoutMs });
  try {
    const page = await browser.newPage();
    await page.route(`${ORIGIN}/**`, (route) => {
      const { pathname } = new URL(route.request().url());
      if (pathname === '/') return route.fulfill({ status: 200, contentType: 'text/html', body: PAGE });
      if (pathname === '/portable.js') return route.fulfill({ status: 200, contentType: 'text/javascript', body: bundle });
      return route.fulfill({ status: 404 });
    });
    await page.goto(`${ORIGIN}/`);
    page.setDefaultTimeout(timeoutMs);
    // A page's script runs in the foreground tab, on the main thread, as a user's would.
    const result = await page.evaluate(async (settings) => {
      const { measure } = await import('/portable.js');
      return measure(settings);
    }, settings);
    return { runtime: `chromium ${browser.version()}`, ...result };
  } finally {
    await browser.close();
  }
}
