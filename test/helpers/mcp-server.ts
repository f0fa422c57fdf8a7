/**
 * The official MCP server (`McpServer` + `StreamableHTTPServerTransport` from
 * `@modelcontextprotocol/sdk`) on 127.0.0.1, stateless or stateful, SSE or JSON, with what the
 * tests need to see from the server's side: every request with its headers, whether its response
 * was closed by the client before it finished, the sockets opened, and the sessions ended.
 *
 * Tools:
 * - `echo {text}`: the text back.
 * - `progress {steps}`: a log message and `steps` progress notifications, then `done`.
 * - `big {bytes}`: a text result of `bytes` characters.
 * - `never`: answers only when the request is cancelled or the server stops.
 * - `poll {delayMs}`: `closeSSEStream()` (the stream then held only its priming event), a log
 *   message, then `polled` after the delay.
 * - `ask`: asks the client for its roots (a server request), and answers with what it said.
 *
 * With `catalog: true`, also `era-tools.ts`'s `CATALOG`: a resource, a resource template, a
 * prompt, and the tools `fails` and `changes`, as the v2 SDK server offers them.
 */

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport, type EventId, type EventStore, type StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListRootsResultSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CATALOG } from './era-tools.js';

/** The four ways the official server can run: with or without sessions, answering by SSE or JSON. */
export const SERVER_MODES = [
  { stateful: false, json: false },
  { stateful: false, json: true },
  { stateful: true, json: false },
  { stateful: true, json: true },
] as const;

/** How the server runs. */
export interface McpServerOptions {
  /** Session ids (`Mcp-Session-Id`) and one transport a session; else a transport a request. */
  readonly stateful: boolean;
  /** `enableJsonResponse`: answers as application/json instead of an event stream. */
  readonly json: boolean;
  /** An event store (priming events, resumption) and this `retryInterval`. Stateful only. */
  readonly resumable?: { readonly retryInterval: number } | undefined;
  /** Registers `era-tools.ts`'s `CATALOG` (a resource, a template, a prompt, `fails`, `changes`) besides the tools. */
  readonly catalog?: boolean | undefined;
}

/** One HTTP request as the server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  /** The JSON-RPC method of a POST's message, if it had one. */
  readonly rpcMethod: string | undefined;
  /** A POST's body, parsed. */
  readonly body: unknown;
  /** The status sent (set when the head is written). */
  status: number | undefined;
  /** The response was closed. */
  closed: boolean;
  /** It was closed by the client before the server finished it. */
  closedEarly: boolean;
  /** Its connection (socket) has closed. */
  socketClosed: boolean;
}

/** A running server. */
export interface RunningMcpServer {
  /** The endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** Every request, in arrival order. */
  readonly requests: SeenRequest[];
  /** Sessions ended by a DELETE. */
  readonly endedSessions: string[];
  /** Sockets the server accepted. */
  sockets(): number;
  /** Calls to `never` that were cancelled (the request's signal aborted). */
  cancelledNever(): number;
  /** Whether `poll` found `closeSSEStream` (the client sent a protocol version that allows it). */
  pollCouldClose(): boolean | undefined;
  /** Forgets every session, as a restarted server would: their requests get 404. */
  forgetSessions(): void;
  /** Stops the server and closes every connection. */
  stop(): Promise<void>;
}

/**
 * An event store like the SDK's `InMemoryEventStore`, replaying in the order events were stored.
 * That one's ids are `stream_millisecond_random` and it replays in id order, so two events stored
 * in one millisecond (`poll`'s priming event and its log message) replay in random order, and an
 * event sorted before the `Last-Event-ID` is never replayed.
 */
export class OrderedEventStore implements EventStore {
  readonly #events: { readonly id: EventId; readonly streamId: StreamId; readonly message: JSONRPCMessage }[] = [];

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${streamId}_${this.#events.length + 1}`;
    this.#events.push({ id, streamId, message });
    return id;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const at = this.#events.findIndex((event) => event.id === lastEventId);
    const last = this.#events[at];
    if (last === undefined) return '';
    for (const event of this.#events.slice(at + 1)) {
      if (event.streamId === last.streamId) await send(event.id, event.message);
    }
    return last.streamId;
  }
}

/** Starts the official MCP server on a free loopback port. */
export async function startMcpServer(options: McpServerOptions): Promise<RunningMcpServer> {
  const requests: SeenRequest[] = [];
  const endedSessions: string[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const stoppers = new Set<() => void>();
  const socketStates = new WeakMap<Socket, { requests: SeenRequest[] }>();
  let sockets = 0;
  let cancelledNever = 0;
  let pollCouldClose: boolean | undefined;
  let reads = 0;

  function registerCatalog(server: McpServer): void {
    server.registerResource(CATALOG.resourceName, CATALOG.resource, { mimeType: 'text/plain' }, (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: `read ${(reads += 1)}` }],
    }));
    server.registerResource(CATALOG.templateName, new ResourceTemplate(CATALOG.template, { list: undefined }), { mimeType: 'text/plain' }, (uri, { n }) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: `page ${String(n)}` }],
    }));
    server.registerPrompt(CATALOG.prompt, { argsSchema: { who: z.string() } }, ({ who }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `hello ${who}` } }],
    }));
    server.registerTool(CATALOG.failing, {}, () => ({ content: [{ type: 'text', text: 'it failed' }], isError: true }));
    server.registerTool(CATALOG.changing, { inputSchema: { uri: z.string() } }, async ({ uri }, extra) => {
      await extra.sendNotification({ method: 'notifications/tools/list_changed' });
      await extra.sendNotification({ method: 'notifications/resources/updated', params: { uri } });
      return { content: [{ type: 'text', text: 'changed' }] };
    });
  }

  function mcpServer(): McpServer {
    const server = new McpServer({ name: 'sse-answer-test', version: '1.0.0' }, { capabilities: { logging: {} } });
    server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
    server.registerTool('progress', { inputSchema: { steps: z.number() } }, async ({ steps }, extra) => {
      await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'starting' } });
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step += 1) {
        if (progressToken !== undefined) {
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: step, total: steps } });
        }
      }
      return { content: [{ type: 'text', text: 'done' }] };
    });
    server.registerTool('big', { inputSchema: { bytes: z.number() } }, ({ bytes }) => ({ content: [{ type: 'text', text: 'x'.repeat(bytes) }] }));
    server.registerTool('never', {}, (extra) =>
      new Promise((resolve) => {
        const end = (): void => {
          stoppers.delete(end);
          resolve({ content: [{ type: 'text', text: 'stopped' }] });
        };
        stoppers.add(end);
        extra.signal.addEventListener('abort', () => {
          cancelledNever += 1;
          end();
        });
      }),
    );
    server.registerTool('poll', { inputSchema: { delayMs: z.number() } }, async ({ delayMs }, extra) => {
      pollCouldClose = extra.closeSSEStream !== undefined;
      extra.closeSSEStream?.();
      await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'polling' } });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return { content: [{ type: 'text', text: 'polled' }] };
    });
    server.registerTool('ask', {}, async (extra) => {
      const roots = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
      return { content: [{ type: 'text', text: roots.roots.map((root) => root.uri).join(',') }] };
    });
    if (options.catalog === true) registerCatalog(server);
    return server;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, seen: SeenRequest, body: unknown): Promise<void> {
    if (!options.stateful) {
      const server = mcpServer();
      const perRequest = new StreamableHTTPServerTransport({ enableJsonResponse: options.json });
      res.on('close', () => {
        void perRequest.close();
        void server.close();
      });
      await server.connect(perRequest);
      await perRequest.handleRequest(req, res, body);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const existing = sessions.get(sessionId);
      if (existing === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
        return;
      }
      await existing.handleRequest(req, res, body);
      return;
    }
    if (seen.rpcMethod !== 'initialize') {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: no session' } }));
      return;
    }
    const server = mcpServer();
    const created = newSessionTransport();
    await server.connect(created);
    await created.handleRequest(req, res, body);
  }

  function newSessionTransport(): StreamableHTTPServerTransport {
    const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: options.json,
      ...(options.resumable === undefined
        ? {}
        : { eventStore: new OrderedEventStore(), retryInterval: options.resumable.retryInterval }),
      onsessioninitialized: (id) => {
        sessions.set(id, created);
      },
      onsessionclosed: (id) => {
        endedSessions.push(id);
        sessions.delete(id);
      },
    });
    return created;
  }

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
      const rpcMethod = typeof body === 'object' && body !== null && typeof (body as { method?: unknown }).method === 'string'
        ? (body as { method: string }).method
        : undefined;
      const seen: SeenRequest = { method: req.method ?? '', headers: req.headers, rpcMethod, body, status: undefined, closed: false, closedEarly: false, socketClosed: false };
      const socket = socketStates.get(req.socket);
      if (socket !== undefined) socket.requests.push(seen);
      requests.push(seen);
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
      res.writeHead = ((...args: unknown[]) => {
        seen.status = args[0] as number;
        return writeHead(...args);
      }) as typeof res.writeHead;
      res.on('close', () => {
        seen.closed = true;
        seen.closedEarly = !res.writableFinished;
      });
      handle(req, res, seen, body).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
      });
    });
  });
  http.on('connection', (socket: Socket) => {
    sockets += 1;
    const state = { requests: [] as SeenRequest[] };
    socketStates.set(socket, state);
    socket.once('close', () => {
      for (const seen of state.requests) seen.socketClosed = true;
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    endedSessions,
    sockets: () => sockets,
    cancelledNever: () => cancelledNever,
    pollCouldClose: () => pollCouldClose,
    forgetSessions: () => sessions.clear(),
    async stop() {
      for (const stop of [...stoppers]) stop();
      for (const session of sessions.values()) await session.close();
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Waits until `check` holds, polling every 10 ms; fails after `ms`. */
export async function eventually(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
