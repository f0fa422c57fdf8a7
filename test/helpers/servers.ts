/**
 * A local HTTP server on 127.0.0.1 for the tests that read over a real connection: it writes a
 * head, then keeps the response open (pinging or silent) and records when the client goes.
 */

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An open server and the promise that settles when its one response's connection closes. */
export interface OpenServer {
  readonly url: string;
  /** Settles when the client closed the connection of a response (the first one). */
  readonly closed: Promise<void>;
  /** Stops the server (and any connection still open). */
  stop(): Promise<void>;
}

/**
 * A server that answers every request with `contentType` and `head`, then never ends the
 * response: `'ping'` writes an SSE comment every few milliseconds, `'silent'` writes nothing more.
 */
export async function endlessServer(contentType: string, head: string, after: 'ping' | 'silent' = 'ping'): Promise<OpenServer> {
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const server: Server = createServer((_req, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': contentType });
    res.write(head);
    const timer = after === 'ping' ? setInterval(() => res.write(': ping\n\n'), 5) : undefined;
    res.on('close', () => {
      clearInterval(timer);
      markClosed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    closed,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
