/**
 * Hostile servers for test/hostile-server.test.ts: a server on 127.0.0.1 that writes its responses
 * byte for byte (a reason phrase with control characters, a header of latin1 bytes, a body that
 * breaks mid-way — what `node:http` refuses to write), and a scripted `fetch` for what Node's own
 * `fetch` refuses to deliver (a header holding ESC or CR, a 1 MiB reason phrase or header). Both
 * take the same {@link Reply}, and record each request as {@link SeenRequest}.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  /** Header names lowercased; a repeated header's values joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The body parsed as JSON, if it is JSON. */
  readonly message: { readonly method?: string; readonly id?: string | number; readonly params?: Record<string, unknown> } | undefined;
  /** `POST initialize`, `DELETE`, …: the HTTP method and the JSON-RPC method. */
  readonly what: string;
}

/** What a hostile server answers. */
export interface Reply {
  readonly status: number;
  /** The reason phrase (written as UTF-8 on the wire); default a plain one. */
  readonly reason?: string | undefined;
  /** Header values are written as latin1 bytes on the wire (one byte a character). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly body?: string | undefined;
  /** Write the body, then break the connection before the declared length is reached. */
  readonly breaks?: boolean | undefined;
  /** Write nothing: close the connection before any response (a scripted fetch rejects). */
  readonly reset?: boolean | undefined;
  /** Write the body, then hold the connection open until the client closes it or the server stops (a real server only). */
  readonly holds?: boolean | undefined;
}

/** A JSON reply. */
export function jsonReply(status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) };
}

/** An event-stream reply of `events` (each already framed, e.g. `id: 1\ndata: {…}\n\n`). */
export function sseReply(events: readonly string[], headers: Readonly<Record<string, string>> = {}): Reply {
  return { status: 200, headers: { 'content-type': 'text/event-stream', ...headers }, body: events.join('') };
}

/** What a server answers a request with. */
export type Handler = (request: SeenRequest) => Reply | Promise<Reply>;

/** A running hostile server. */
export interface HostileServer {
  readonly url: string;
  /** Every request, in order of arrival. */
  readonly requests: SeenRequest[];
  /** `what` of every request: `POST server/discover`, `DELETE`, …. */
  whats(): string[];
  stop(): Promise<void>;
}

/** A server on 127.0.0.1 that answers each request with `handle`'s reply, written raw; one request a connection. */
export async function startHostileServer(handle: Handler): Promise<HostileServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      if (answered) return;
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const [method = '', path = ''] = head[0]!.split(' ');
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
      }
      const length = Number(headers['content-length'] ?? 0);
      if (buffer.length < end + 4 + length) return;
      answered = true;
      const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      const request = seen(method, path, headers, body);
      requests.push(request);
      void Promise.resolve(handle(request)).then((reply) => writeReply(socket, reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    whats: () => requests.map((request) => request.what),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function seen(method: string, path: string, headers: Record<string, string>, body: string): SeenRequest {
  let message: SeenRequest['message'];
  try {
    message = body === '' ? undefined : (JSON.parse(body) as SeenRequest['message']);
  } catch {
    message = undefined;
  }
  const rpc = typeof message?.method === 'string' ? ` ${message.method}` : '';
  return { method, path, headers, body, message, what: `${method}${rpc}` };
}

const REASONS: Readonly<Record<number, string>> = { 200: 'OK', 202: 'Accepted', 307: 'Temporary Redirect', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 500: 'Internal Server Error' };

function writeReply(socket: Socket, reply: Reply): void {
  if (reply.reset === true) {
    socket.destroy();
    return;
  }
  const body = Buffer.from(reply.body ?? '', 'utf8');
  const head = [Buffer.from(`HTTP/1.1 ${reply.status} `, 'latin1'), Buffer.from(reply.reason ?? REASONS[reply.status] ?? 'Whatever', 'utf8'), Buffer.from('\r\n', 'latin1')];
  // A held body has no length: it goes on until the connection closes.
  const length = reply.holds === true ? {} : { 'content-length': String(body.length + (reply.breaks === true ? 1000 : 0)) };
  const headers = { ...reply.headers, ...length, connection: 'close' };
  for (const [name, value] of Object.entries(headers)) head.push(Buffer.from(`${name}: ${value}\r\n`, 'latin1'));
  head.push(Buffer.from('\r\n', 'latin1'));
  socket.write(Buffer.concat([...head, body]));
  if (reply.breaks === true) setTimeout(() => socket.destroy(), 20);
  else if (reply.holds !== true) socket.end();
}

/** Headers a real `Headers` would refuse (CR, LF, any length): what a scripted response carries. */
class RawHeaders {
  readonly #map = new Map<string, string>();
  constructor(init: Readonly<Record<string, string>>) {
    for (const [name, value] of Object.entries(init)) this.#map.set(name.toLowerCase(), value);
  }
  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }
  forEach(callback: (value: string, name: string) => void): void {
    this.#map.forEach((value, name) => callback(value, name));
  }
  *[Symbol.iterator](): IterableIterator<[string, string]> {
    yield* this.#map.entries();
  }
}

/** A scripted `fetch` and the requests it saw. */
export interface ScriptedFetch {
  readonly fetch: (input: string | URL, init: RequestInit) => Promise<Response>;
  readonly requests: SeenRequest[];
  whats(): string[];
}

/**
 * A `fetch` that answers with `handle`'s reply as a response object Node's `Response` could not
 * be: any reason phrase, any header value, any length. A `breaks` body errors after its text.
 */
export function scriptedFetch(handle: Handler): ScriptedFetch {
  const requests: SeenRequest[] = [];
  const fetch = async (input: string | URL, init: RequestInit): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const url = new URL(input);
    const request = seen(init.method ?? 'GET', url.pathname + url.search, headers, typeof init.body === 'string' ? init.body : '');
    requests.push(request);
    const reply = await handle(request);
    if (reply.reset === true) throw new TypeError('fetch failed', { cause: new Error('other side closed') });
    const bytes = new TextEncoder().encode(reply.body ?? '');
    const body =
      reply.body === undefined && reply.breaks !== true
        ? null
        : new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(bytes);
              if (reply.breaks === true) controller.error(new TypeError('terminated'));
              else controller.close();
            },
          });
    const response = {
      status: reply.status,
      statusText: reply.reason ?? REASONS[reply.status] ?? '',
      ok: reply.status >= 200 && reply.status <= 299,
      type: 'basic',
      url: url.href,
      redirected: false,
      bodyUsed: false,
      headers: new RawHeaders(reply.headers ?? {}),
      body,
    };
    return response as unknown as Response;
  };
  return { fetch, requests, whats: () => requests.map((request) => request.what) };
}
