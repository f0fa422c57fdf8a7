/** The `--help` text. The exit codes in it are generated from the table, so the two cannot drift. @module */

import { EXIT_ANSWERED, EXIT_CODES, EXIT_FAILED, EXIT_USAGE } from './exit-codes.js';

/** The full help text. */
export function helpText(): string {
  const codes = Object.entries(EXIT_CODES).map(([code, exit]) => `  ${String(exit).padStart(3)}  ${code}`);
  return `sse-answer: read one JSON-RPC answer from an MCP Streamable HTTP response, holding no stream

Usage:
  sse-answer read [FILE|-] [--content-type T] [--request-id ID] [--max-bytes N]
      A captured body (a file, or stdin for - or none) -> the answer (the whole JSON-RPC
      response) as JSON on stdout; the messages passed over as NDJSON on stderr.
      Without --content-type, a body whose first non-blank character is { or [ is JSON,
      any other an event stream. --request-id is read as JSON when it parses (1 is the
      number, '"1"' the string), else as a string.
  sse-answer events [FILE|-] [--max-bytes N]
      The scanned events as NDJSON, one {type, data, lastEventId} a line. A final event
      cut off at the end is still dispatched, as readAnswer does. Past --max-bytes
      (default 16 MiB, as read's) it stops with budget_exceeded.
  sse-answer call URL METHOD [PARAMS_JSON] [--header K:V]... [--timeout MS] [--max-bytes N]
                  [--protocol-version V] [--no-initialize] [--bearer-token-env NAME]
                  [--secret-header NAME]...
      Sends one request and prints its answer (the whole JSON-RPC response). The era is
      negotiated as MCP 2026-07-28 says: server/discover first; a modern server is spoken
      to in 2026-07-28 (every request carries _meta and the Mcp-* headers, no session; a
      tools/call first reads tools/list for the tool's Mcp-Param-* headers); a refusal
      that is not a modern JSON-RPC error (-32020, -32021, -32022) falls back to the 2025
      handshake (initialize, notifications/initialized, the session, DELETE at the end).
      One stderr line says which era and version were used. --protocol-version V pins V,
      with no negotiation (its era follows from V; a 2025 server must answer initialize
      in V). --no-initialize sends the request alone (2025 era unless V, or an
      MCP-Protocol-Version --header, is modern).
      The messages passed over before the answer go to stderr as NDJSON; when stderr is a
      terminal, each notifications/progress (ask for them with _meta.progressToken in
      PARAMS_JSON) is drawn instead as one bar redrawn in place: [#####-----] 3/5 message.
      --timeout is the deadline of each exchange (default 30000 ms).
      --bearer-token-env NAME sends Authorization: Bearer with the token in the environment
      variable NAME (never on the command line; never printed). --secret-header NAME marks
      the --header NAME as secret: its value is never printed, nor quoted back from the
      server (Authorization, Proxy-Authorization and Cookie always are). A secret must be
      8 characters or more: a shorter token or --secret-header value is bad usage.
  sse-answer probe URL [--header K:V]... [--timeout MS] [--max-bytes N]
                   [--bearer-token-env NAME] [--secret-header NAME]... [--origin ORIGIN]
      One JSON object on stdout: the era call would speak and its version, the versions
      the server supports, its serverInfo and capabilities, whether it answers in JSON or
      an event stream, and in the 2025 era whether it issues sessions, primes streams for
      resumption and accepts DELETE ("modern" and "legacy" say what each era answered).
      It asks server/discover, then initialize in each 2025 version, ending every session.
      --origin ORIGIN adds "cors": what a page at ORIGIN would meet. In each era, the
      requests a page's client sends, with Origin: ORIGIN, then the preflight (OPTIONS) of
      each request it sends or would send (a tools/call of each tool, with its Mcp-Name and
      Mcp-Param-*; prompts/get, resources/read; a 2025 resumption). Each finding names the
      requests and the header to fix: origin_not_allowed, preflight_refused,
      method_not_allowed (DELETE), header_not_allowed (Content-Type, the Mcp-* headers,
      Last-Event-ID, Authorization with a token), header_not_exposed (Mcp-Session-Id,
      WWW-Authenticate), request_failed. No finding: a page can use the server.
  sse-answer --help | --version

Exit codes:
  ${String(EXIT_ANSWERED).padStart(3)}  answered (a JSON-RPC error response is an answer too)
  ${String(EXIT_FAILED).padStart(3)}  other failure (a file that cannot be read; negotiation_failed: initialize refused,
       no common version; invalid_tool: a tool with invalid x-mcp-header annotations)
  ${String(EXIT_USAGE).padStart(3)}  bad usage
${codes.join('\n')}
`;
}
