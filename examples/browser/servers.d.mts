// Types of servers.mjs, for the Chromium test that starts the same servers as the demo.
import type { IncomingHttpHeaders } from 'node:http';

/** The `x-mcp-header` of `tagged`'s `region`: a 2026-07-28 call carries it as `Mcp-Param-Region`. */
export declare const REGION_HEADER: 'Region';

/** What a server tells a browser: each field one piece of CORS. */
export interface CorsPolicy {
  /** Whether the preflight (`OPTIONS`) is answered; otherwise it goes to the MCP handler. */
  readonly preflight: boolean;
  /** `Access-Control-Allow-Methods` of the preflight's answer. */
  readonly allowMethods: readonly string[];
  /** `Access-Control-Allow-Headers` of the preflight's answer. */
  readonly allowHeaders: readonly string[];
  /** `Access-Control-Expose-Headers` of every other response. */
  readonly exposeHeaders: readonly string[];
  /** `Access-Control-Max-Age` of the preflight's answer. */
  readonly maxAgeSeconds: number;
}

/** Everything a page needs, as the demo serves it. */
export declare const CORS: CorsPolicy;

/** One request as an MCP server saw it. */
export interface SeenRequest {
  /** The HTTP method. */
  readonly method: string;
  /** The JSON-RPC method of a POST's message. */
  readonly rpc: string | undefined;
  /** Its headers, names in lower case. */
  readonly headers: IncomingHttpHeaders;
  /** The status, once the response finished. */
  status: number | undefined;
}

/** How {@link startMcpServer} serves. */
export interface McpServerOptions {
  /** `modern`: 2026-07-28, stateless; `legacy`: 2025-11-25 with sessions. */
  readonly era: 'modern' | 'legacy';
  /** The page origins allowed: a request from any other is refused, 403. */
  readonly origins: readonly string[];
  /** The CORS it answers with; default {@link CORS}. */
  readonly cors?: CorsPolicy;
  /** When given, every request but a preflight needs `Authorization: Bearer <token>` (the SDK's bearer gate). */
  readonly token?: string;
  /** The wait before each of `countdown`'s steps, in milliseconds; default 0. */
  readonly stepMs?: number;
  /** Called as each response finishes. */
  readonly onRequest?: (request: SeenRequest) => void;
}

/** A running MCP server. */
export interface RunningMcpServer {
  /** `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** Its era. */
  readonly era: 'modern' | 'legacy';
  /** Every request, in arrival order. */
  readonly requests: SeenRequest[];
  /** The sessions a DELETE ended (legacy). */
  readonly endedSessions: string[];
  /** Responses not yet finished or closed. */
  openResponses(): number;
  /** Ends every session, closes every connection. */
  stop(): Promise<void>;
}

/** Starts the v2 SDK server in `era` on a free port of 127.0.0.1, behind CORS for `origins`. */
export declare function startMcpServer(options: McpServerOptions): Promise<RunningMcpServer>;

/** The page's server. */
export interface RunningPageServer {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** That origin, and the same port by the name localhost. */
  readonly origins: readonly string[];
  /** The page's URL with `serverUrl` prefilled. */
  pageUrl(serverUrl: string): string;
  /** Closes every connection. */
  stop(): Promise<void>;
}

/** Starts the page's server on 127.0.0.1 (`port` 0, the default: a free one). */
export declare function startPageServer(options?: { readonly port?: number }): Promise<RunningPageServer>;
