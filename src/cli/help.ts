/**
 * The `--help` text. The exit codes in it are generated from the table, so the two cannot drift.
 * @module
 */

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
  sse-answer events [FILE|-]
      The scanned events as NDJSON, one {type, data, lastEventId} a line. A final event
      cut off at the end is still dispatched, as readAnswer does.
  sse-answer call URL METHOD [PARAMS_JSON] [--header K:V]... [--timeout MS] [--max-bytes N]
                  [--no-initialize] [--bearer-token-env NAME]
      Initializes a session (initialize, notifications/initialized, then the negotiated
      protocol version on every request), sends the request, prints the answer (the whole
      JSON-RPC response), and ends the session (DELETE). --no-initialize sends the request
      alone. --timeout is the deadline of each exchange (default 30000 ms).
      --bearer-token-env NAME sends Authorization: Bearer with the token in the environment
      variable NAME (never on the command line; never printed).
  sse-answer --help | --version

Exit codes:
  ${String(EXIT_ANSWERED).padStart(3)}  answered (a JSON-RPC error response is an answer too)
  ${String(EXIT_FAILED).padStart(3)}  other failure (a file that cannot be read, initialize refused)
  ${String(EXIT_USAGE).padStart(3)}  bad usage
${codes.join('\n')}
`;
}
