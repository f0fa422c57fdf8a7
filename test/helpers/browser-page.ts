/**
 * Headless Chromium (the build inside `@sparticuz/chromium`, driven by `playwright-core`) and a
 * driver for the browser example's page (`examples/browser/`): it clicks what a person clicks and
 * reads back what the page shows.
 *
 * The browser gets a fresh profile (playwright's own temporary user-data-dir) and no network but
 * loopback: every host name resolves to nothing, and only 127.0.0.1 is reached.
 */

import { chromiumPath } from '../runtimes/hosts/chromium-path.mjs';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Not sparticuz's own `args`: those turn web security (CORS) off, which is what the test is about.
 * `--no-sandbox`: its build has no sandbox helper, and root needs it anyway.
 */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-domain-reliability',
  '--disable-sync',
  '--no-pings',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/** Launches the browser. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), args: FLAGS, timeout: 20_000 });
}

/** What the page shows, read at once. */
export interface PageView {
  /** `data-state` of `<main>`: `ready`, `connected`, `answered`, `closed` or `failed`. */
  readonly state: string;
  /** The status line (`role="status"`). */
  readonly status: string;
  readonly era: string;
  readonly protocolVersion: string;
  readonly negotiatedBy: string;
  readonly sessionId: string;
  /** The tool names listed. */
  readonly tools: string[];
  /** Each message passed over, as listed. */
  readonly messages: string[];
  /** The progress bar: `value`, `max`, and the message beside it. */
  readonly progress: { readonly value: number; readonly max: number; readonly message: string };
  readonly answer: string;
  /** The error box (`role="alert"`): whether it shows, and the `AnswerError`'s code and message. */
  readonly error: { readonly shown: boolean; readonly code: string; readonly message: string };
  /** The note beside the arguments when they are not a JSON object. */
  readonly argumentsInvalid: string;
}

/** The example's page in one tab, driven as a person would. */
export class PageDriver {
  /** What the page threw, uncaught. */
  readonly thrown: string[] = [];
  /** Every URL the page asked for. */
  readonly asked: string[] = [];

  private constructor(readonly page: Page, private readonly pageUrl: (serverUrl: string) => string) {
    page.on('pageerror', (error) => this.thrown.push(error.message));
    page.on('request', (request) => this.asked.push(request.url()));
  }

  /** A new tab of `browser`, for the page that `pageUrl` addresses. */
  static async open(browser: Browser, pageUrl: (serverUrl: string) => string): Promise<PageDriver> {
    return new PageDriver(await browser.newPage(), pageUrl);
  }

  /** Loads the page with `serverUrl` prefilled, and waits for its script to be ready. */
  async load(serverUrl: string): Promise<void> {
    await this.page.goto(this.pageUrl(serverUrl));
    await this.page.waitForSelector('main[data-state="ready"]', { state: 'attached' });
  }

  /** Connects (with `token` as the bearer token, if given); resolves with the state it ends in. */
  async connect(token = ''): Promise<string> {
    await this.page.fill('#token', token);
    return this.act('#connect');
  }

  /** Calls `tool` with `args` typed into the textarea as they are; resolves with the state. */
  async call(tool: string, args: string): Promise<string> {
    await this.page.selectOption('#tool', tool);
    await this.page.fill('#arguments', args);
    return this.act('#call');
  }

  /** Closes the client; resolves with the state. */
  async close(): Promise<string> {
    return this.act('#close');
  }

  /** Reads what the page shows. */
  async view(): Promise<PageView> {
    return this.page.evaluate(() => {
      const text = (selector: string): string => document.querySelector(selector)?.textContent ?? '';
      const all = (selector: string): string[] => Array.from(document.querySelectorAll(selector), (node) => node.textContent ?? '');
      const progress = document.querySelector('progress');
      const error = document.querySelector<HTMLElement>('#error');
      return {
        state: document.querySelector('main')?.dataset['state'] ?? '',
        status: text('#status'),
        era: text('#era'),
        protocolVersion: text('#protocol-version'),
        negotiatedBy: text('#negotiated-by'),
        sessionId: text('#session-id'),
        tools: all('#tools code'),
        messages: all('#messages li'),
        progress: { value: progress?.value ?? Number.NaN, max: progress?.max ?? Number.NaN, message: text('#progress-message') },
        answer: text('#answer'),
        error: { shown: error !== null && !error.hidden, code: text('#error-code'), message: text('#error-message') },
        argumentsInvalid: text('#arguments-invalid'),
      };
    });
  }

  /** Clicks `selector`, then waits until the page is no longer busy. */
  private async act(selector: string): Promise<string> {
    await this.page.click(selector);
    const settled = await this.page.waitForFunction(() => {
      const state = document.querySelector('main')?.dataset['state'];
      return state !== 'busy' && state;
    }, undefined, { timeout: 15_000 });
    return String(await settled.jsonValue());
  }
}
