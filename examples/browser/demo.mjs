// `npm run demo:browser`: the browser example. The v2 MCP SDK server runs in both eras on
// loopback — 2026-07-28 stateless, 2025-11-25 with sessions — each allowing the page's origin with
// CORS; the page (index.html, page.js and the built dist/index.js) is served from its own origin.
// It prints the URLs to open, then each request the servers see, until Ctrl+C.
// `npm run demo:browser -- --port 8080` serves the page on that port (default: a free one), an
// origin your own server can allow ahead of time.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startMcpServer, startPageServer } from './servers.mjs';

if (!existsSync(fileURLToPath(new URL('../../dist/index.js', import.meta.url)))) {
  console.error('dist/index.js is not built: run `npm run demo:browser`, which builds it first');
  process.exit(1);
}

const ERAS = { modern: '2026-07-28', legacy: '2025-11-25' };

/** One line a request: a preflight says which headers it asked for. */
function logLine(era) {
  return (request) => {
    const asked = request.headers['access-control-request-headers'];
    const what = request.method === 'OPTIONS' ? `OPTIONS (preflight: ${asked ?? 'no headers'})` : `${request.method}${request.rpc === undefined ? '' : ` ${request.rpc}`}`;
    const session = request.headers['mcp-session-id'] === undefined ? '' : `, session ${String(request.headers['mcp-session-id']).slice(0, 8)}…`;
    console.log(`[${ERAS[era]}] ${what} → ${request.status}${session}`);
  };
}

/** The page's port: `--port N`, else 0 (a free one). */
function pagePort() {
  try {
    const { port } = parseArgs({ options: { port: { type: 'string', default: '0' } } }).values;
    if (/^\d{1,5}$/.test(port) && Number(port) <= 65535) return Number(port);
    throw new Error(`--port must be a port number, got ${JSON.stringify(port)}`);
  } catch (error) {
    console.error(`${error.message}\nusage: npm run demo:browser -- [--port N]`);
    process.exit(2);
  }
}

const page = await startPageServer({ port: pagePort() }).catch((error) => {
  console.error(`the page cannot be served: ${error.message}`);
  process.exit(1);
});
const servers = [];
for (const era of ['modern', 'legacy']) {
  // A step every 400 ms: long enough to watch the progress bar fill.
  servers.push(await startMcpServer({ era, origins: page.origins, stepMs: 400, onRequest: logLine(era) }));
}

console.log('sse-answer in the browser: AnswerClient in a page, against the v2 MCP SDK server in both eras.\n');
for (const server of servers) {
  const what = server.era === 'modern' ? '2026-07-28, stateless' : '2025-11-25, with sessions';
  console.log(`  ${what}: ${server.url}`);
  console.log(`    open ${page.pageUrl(server.url)}\n`);
}
console.log(`The page is served from ${page.origin}; each server allows that origin with CORS (docs/guides/browser.md).`);
console.log('Requests the servers see are printed below. Ctrl+C stops.\n');

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.all([...servers.map((server) => server.stop()), page.stop()]);
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
