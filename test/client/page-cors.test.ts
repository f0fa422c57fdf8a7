/**
 * page-cors.ts: what a page of another origin cannot see, named only where the package runs in a
 * page (a document, or a browser worker with a location) of another origin than the server's.
 * In Node each case is staged with stubbed globals; real Chromium runs it in browser-page.test.ts.
 */

import { afterEach, describe, expect, test, vi } from 'vitest';
import { crossOriginPage, hiddenChallengeNote, hiddenSessionNote, inPage, preflightedHeaders } from '../../src/client/page-cors.js';
import { written } from '../../src/vocabulary/failure.js';

const SERVER = 'http://127.0.0.1:4599/mcp';

afterEach(() => {
  vi.unstubAllGlobals();
});

function page(origin: string): void {
  vi.stubGlobal('document', {});
  vi.stubGlobal('location', { origin });
}

/** A response as a page's fetch gives it: its url set. */
function responseFrom(url: string, status: number, headers: Record<string, string> = {}): Response {
  const response = new Response(null, { status, headers });
  Object.defineProperty(response, 'url', { value: url });
  return response;
}

describe('where the package is', () => {
  test('Node is no page, whatever location it is given (Deno may have one)', () => {
    expect([inPage(), crossOriginPage(SERVER)]).toEqual([false, undefined]);
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:5173' });
    expect([inPage(), crossOriginPage(SERVER)]).toEqual([false, undefined]);
  });

  test('a page: its origin when the server is of another, none when it is the same', () => {
    page('http://127.0.0.1:5173');
    expect([inPage(), crossOriginPage(SERVER), crossOriginPage('http://127.0.0.1:5173/mcp')]).toEqual([true, 'http://127.0.0.1:5173', undefined]);
  });

  test("an opaque origin ('null'), or a location that throws: nothing is said", () => {
    page('null');
    expect(crossOriginPage(SERVER)).toBeUndefined();
    vi.stubGlobal('location', {
      get origin(): string {
        throw new Error('denied');
      },
    });
    expect(crossOriginPage(SERVER)).toBeUndefined();
  });
});

test('the headers a preflight must allow: all but the safelisted, spelled as the revisions write them', () => {
  const headers = new Headers({
    accept: 'application/json',
    'accept-language': 'en',
    'content-type': 'application/json',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'echo',
    'mcp-param-region': 'eu',
    'mcp-session-id': 's',
    authorization: 'Bearer t',
    'x-trace': '1',
  });
  expect(preflightedHeaders(headers)).toEqual([
    'Authorization',
    'Content-Type',
    'Mcp-Method',
    'Mcp-Name',
    'mcp-param-region',
    'MCP-Protocol-Version',
    'Mcp-Session-Id',
    'x-trace',
  ]);
});

describe('the notes', () => {
  test('a hidden session is named only in a page of another origin', () => {
    expect(written(hiddenSessionNote(SERVER))).toBe('');
    page('http://127.0.0.1:5173');
    expect(written(hiddenSessionNote(SERVER))).toBe(
      '; the initialize response carried no Mcp-Session-Id this page could see: if the server issues sessions, it must expose the header (Access-Control-Expose-Headers: Mcp-Session-Id)',
    );
    expect(written(hiddenSessionNote('http://127.0.0.1:5173/mcp'))).toBe('');
  });

  test('a hidden challenge: a 401 with no WWW-Authenticate visible, in a page of another origin', () => {
    const hidden = responseFrom(SERVER, 401);
    expect(written(hiddenChallengeNote(hidden))).toBe('');
    page('http://127.0.0.1:5173');
    expect(written(hiddenChallengeNote(hidden))).toBe(
      '; no WWW-Authenticate was visible to this page: if the server sent one, it must expose it (Access-Control-Expose-Headers: WWW-Authenticate)',
    );
    // Seen, another status, or a response with no url (made by the caller's fetch): nothing to say.
    expect(written(hiddenChallengeNote(responseFrom(SERVER, 401, { 'www-authenticate': 'Bearer' })))).toBe('');
    expect(written(hiddenChallengeNote(responseFrom(SERVER, 403)))).toBe('');
    expect(written(hiddenChallengeNote(new Response(null, { status: 401 })))).toBe('');
  });
});
