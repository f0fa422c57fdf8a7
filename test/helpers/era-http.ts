/**
 * The node:http layer under every era test server (`era-servers.ts`): it records each request as
 * the server saw it, counts sockets, breaks the response of a `breaks` call on purpose, and
 * bridges node:http to the Web `Request → Response` handlers that mcp-handler and tmcp are.
 *
 * The implementations under test never see this layer: they get the request (or a `Request`
 * built from it) and answer; what they write is what the client reads.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One HTTP request as an era server saw it. */
/** One request as any server helper records it (an era server's {@link EraRequest}, the v1 SDK server's): what tests compare across servers. */
export type RecordedRequest = Pick<EraRequest, 'method' | 'rpcMethod' | 'headers' | 'body'> & { readonly status: number | undefined };

export interface EraRequest {
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  /** The JSON-RPC method of a POST's message, if it had one. */
  readonly rpcMethod: string | undefined;
  /** `params.name` of a `tools/call`. */
  readonly toolName: string | undefined;
  /** A POST's body, parsed (`undefined` when empty or not JSON). */
  readonly body: unknown;
  /** The status sent (set when the head is written). */
  status: number | undefined;
  /** The `content-type` of the response head. */
  contentType: string | undefined;
  /** The response was closed. */
  closed: boolean;
  /** It was closed before the server finished it: by the client, or by `broken`. */
  closedEarly: boolean;
  /** This layer destroyed the connection mid-response (a `breaks` call). */
  broken: boolean;
  /** Its connection (socket) has closed. */
  socketClosed: boolean;
}

/** Answers one request whose body this layer has already read. */
export type RecordedHandler = (req: IncomingMessage, res: ServerResponse, body: unknown, text: string) => Promise<void>;

/** A node:http server with its request log. */
export interface RecordingServer {
  /** The endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** Every request, in arrival order. */
  readonly requests: EraRequest[];
  /** Sockets the server accepted. */
  sockets(): number;
  /** Closes every connection and the listener. */
  stop(): Promise<void>;
}

/** The tool whose response stream this layer breaks after its first progress notification. */
export const BREAKING_TOOL = 'breaks';

function objectField(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function stringField(value: unknown, key: string): string | undefined {
  const field = objectField(value, key);
  return typeof field === 'string' ? field : undefined;
}

/**
 * Starts a node:http server on a free loopback port that reads each body, records the request,
 * and hands it to `handle`.
 */
export async function startRecordingServer(handle: RecordedHandler): Promise<RecordingServer> {
  const requests: EraRequest[] = [];
  const socketRequests = new WeakMap<Socket, EraRequest[]>();
  let sockets = 0;

  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      const rpcMethod = stringField(body, 'method');
      const toolName = rpcMethod === 'tools/call' ? stringField(objectField(body, 'params'), 'name') : undefined;
      const seen: EraRequest = {
        method: req.method ?? '',
        headers: req.headers,
        rpcMethod,
        toolName,
        body,
        status: undefined,
        contentType: undefined,
        closed: false,
        closedEarly: false,
        broken: false,
        socketClosed: false,
      };
      requests.push(seen);
      socketRequests.get(req.socket)?.push(seen);
      record(res, seen);
      if (toolName === BREAKING_TOOL) breakAfterProgress(res, seen);
      handle(req, res, body, text).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
        else res.destroy();
      });
    });
  });
  http.on('connection', (socket: Socket) => {
    sockets += 1;
    const seenOnSocket: EraRequest[] = [];
    socketRequests.set(socket, seenOnSocket);
    socket.once('close', () => {
      for (const seen of seenOnSocket) seen.socketClosed = true;
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    sockets: () => sockets,
    async stop() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Records the status and content type as the head is written, and how the response closed. */
function record(res: ServerResponse, seen: EraRequest): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    seen.status = args[0] as number;
    const headers = args.find((arg) => typeof arg === 'object' && arg !== null) as Record<string, unknown> | undefined;
    const contentType = headers === undefined
      ? undefined
      : Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    seen.contentType = typeof contentType === 'string' ? contentType : (res.getHeader('content-type') as string | undefined);
    return writeHead(...args);
  }) as typeof res.writeHead;
  res.on('close', () => {
    seen.closed = true;
    seen.closedEarly = !res.writableFinished;
  });
}

/**
 * Destroys the connection once a chunk carrying a progress notification has gone out: the
 * client has seen the stream start and then loses it, as on a dropped network, which no library
 * here offers a hook for.
 */
function breakAfterProgress(res: ServerResponse, seen: EraRequest): void {
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  res.write = ((...args: unknown[]) => {
    const chunk = args[0];
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : '';
    const written = write(...args);
    if (!seen.broken && text.includes('notifications/progress')) {
      seen.broken = true;
      // After the bytes are flushed, so the client really reads the notification first.
      setTimeout(() => res.socket?.destroy(), 20);
    }
    return written;
  }) as typeof res.write;
}

/**
 * Serves one request with a Web handler (`Request → Response`): builds the `Request` from the
 * node request (its signal aborts when the client goes before the response finished, which is
 * how a Web handler hears "closing the stream cancels the request"), then streams the
 * `Response` body out, cancelling it when the client goes.
 */
export async function serveWeb(
  fetchHandler: (request: Request) => Promise<Response | null>,
  req: IncomingMessage,
  res: ServerResponse,
  text: string,
): Promise<void> {
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = req.method ?? 'GET';
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method,
    headers,
    signal: abort.signal,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: text }),
  });
  const response = (await fetchHandler(request)) ?? new Response(null, { status: 404 });
  const head: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    head[name] = value;
  });
  res.writeHead(response.status, head);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
  } catch {
    // The client went (the reader was cancelled) or the handler errored the stream.
  }
  res.end();
}
