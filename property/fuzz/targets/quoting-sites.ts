/**
 * The quoting sites themselves (issue 35, rule 6), end to end: a generated server text placed at
 * one site a server controls, reached through the public APIs — `postJsonRpc`,
 * `AnswerTransport.send`, `AnswerClient` (a request, `connect`, a 2026 `tools/call`) — behind a
 * scripted `fetch`. The `quoting` target checks the quoting functions; this one checks that every
 * site goes through them: a site that put the server's text into a message raw, unbounded or
 * unredacted passes that target and fails this one.
 *
 * The sites: the reason phrase of a refusal; a JSON-RPC error's message with a status outside
 * 2xx; a `WWW-Authenticate` challenge's `error`, `scope` and scheme (401, 403); the `Location` of
 * a 307 to another origin; a 200's content type; the last event id of a stream that ends without
 * the answer; a `server/discover` refusal — its code, the versions it lists, a 2026 error's
 * message, a refusal with a status — and an `initialize` answer not accepted (`connect`); a
 * tool's invalid `x-mcp-header` annotations, its name and its property key (a 2026 `tools/call`).
 *
 * The texts: up to about 1 MiB, of every control, bidi, separator and surrogate character, with
 * the exchange's secrets — the `authProvider`'s token or the caller's `Authorization`, and a
 * header named in `secretHeaders` — embedded as sent, percent-encoded (`encodeURIComponent`,
 * `URLSearchParams`, lower-case hex, every byte) or JSON-escaped.
 *
 * Checked, for every `AnswerError` the run produces (thrown, handed to `onerror`, or the cause of
 * another) and for a fallback's `negotiatedBy.refusal`, with the bounds of
 * test/hostile-server.test.ts:
 *
 * - the message: at most {@link MESSAGE_BOUND} characters; never more than 64 of the server's
 *   characters in a row; no raw C0, DEL, C1, bidi control, U+2028/2029 or lone surrogate; no form
 *   of a secret (as sent, percent-encoded, JSON-escaped) outside the `[redacted]` markers;
 * - `detail`: each string but those of `detail.answer` (the server's JSON, as parsed) at most
 *   {@link DETAIL_BOUND} characters with no raw unsafe character; no string of it, `answer` and
 *   keys included, holding a secret;
 * - that the site was reached: the error has the code the site leads to, and where the site
 *   quotes the text as it came, the message holds that quote of the text, redacted — so a target
 *   that stopped reaching a site would say so, not pass.
 *
 * The scripted `fetch` answers with a real `Response` whose `statusText` and `headers` are
 * shadowed by own properties: the `Response` constructor refuses a reason phrase with a control
 * character, and `Headers` one with CR, LF, NUL or a character past U+00FF (and trims the rest),
 * but a caller's own `fetch` — a proxy, a test double, another runtime — can hand over anything,
 * and each site must quote whatever it gets. Node's own fetch delivers less (a reason phrase or a
 * header value is latin1 bytes, no CR or LF, 16 KiB of headers); test/hostile-server.test.ts
 * sends that over a real connection.
 *
 * Secrets are ASCII a header takes — a bearer token's characters and some a percent-encoding or
 * JSON changes (`%`, `!`, `*`, `'`, `"`) — at least 8 long, with no `"` at either end and no
 * backslash: so that no secret can be spelled by the package's own words, quote marks or escapes
 * beside the server's text (a collision, not a secret repeated; `quoting` tries those secrets
 * against the functions themselves). A text holds each secret whole: a part of one is no secret.
 */
import fc from 'fast-check';
import { encodedSecret, MARKER_OR_ESCAPE, timesArb, UNSAFE_CODES, type EncodedForm } from '../server-text.js';
import {
  AnswerClient,
  AnswerTransport,
  isAnswerError,
  MODERN_PROTOCOL_VERSION,
  postJsonRpc,
  type AnswerError,
  type AnswerErrorCode,
  type ExchangeOptions,
  type FetchFunction,
} from '../../../src/index.js';
import { DETAIL_PREFIX, PREFIX, shortText, quoteText } from '../../../src/vocabulary/describe-value.js';
import { MIN_SECRET_LENGTH, Secrets } from '../../../src/vocabulary/secrets.js';
import { Broken, defineTarget, ensure } from '../target.js';

/** Where the text goes. */
export type SiteName =
  | 'reason'
  | 'rpc-message'
  | 'www-authenticate-error'
  | 'www-authenticate-scope'
  | 'www-authenticate-scheme'
  | 'location'
  | 'content-type'
  | 'last-event-id'
  | 'discover-code'
  | 'discover-legacy-versions'
  | 'discover-result-versions'
  | 'discover-header-mismatch'
  | 'discover-no-common-version'
  | 'discover-refused'
  | 'initialize-no-version'
  | 'initialize-version'
  | 'tool-annotation';

/** The sites one exchange of a request meets (the rest are `connect`'s and a `tools/call`'s). */
const EXCHANGE_SITES: readonly SiteName[] = ['reason', 'rpc-message', 'www-authenticate-error', 'www-authenticate-scope', 'www-authenticate-scheme', 'location', 'content-type', 'last-event-id'];
const CONNECT_SITES: readonly SiteName[] = [
  'discover-code',
  'discover-legacy-versions',
  'discover-result-versions',
  'discover-header-mismatch',
  'discover-no-common-version',
  'discover-refused',
  'initialize-no-version',
  'initialize-version',
];

type Api = 'postJsonRpc' | 'AnswerTransport' | 'AnswerClient';

/** How the exchange authenticates: the provider's token (and `onUnauthorized` with one retry), the caller's own `Authorization`, or neither. */
type Auth = 'provider' | 'provider-retry' | 'authorization' | 'none';

/** One piece of the server's text, repeated `times`. */
type Piece =
  | { readonly kind: 'text'; readonly text: string; readonly times: number }
  | { readonly kind: 'secret'; readonly which: 'token' | 'apiKey'; readonly form: EncodedForm; readonly times: number };

export interface QuotingSitesInput {
  readonly site: SiteName;
  /** The API an exchange site is reached through (the other sites: `AnswerClient`). */
  readonly api: Api;
  /** The era of an exchange site's request: 2025 (resumable), or 2026 (a stream that ends early loses the request). */
  readonly era: 'legacy' | 'modern';
  /** The status of `reason`, `rpc-message` and `discover-refused`. */
  readonly status: number;
  /**
   * Where the site holds the text: `true` — inside the syntax around it (a `WWW-Authenticate`
   * quoted-string, escaped; a content type's parameter); `false` — as the whole value (raw
   * inside the quotes of a challenge, the content type itself).
   */
  readonly wrapped: boolean;
  /** `resume` for an exchange site (a 2025 stream without the answer is resumed; the GET is refused). */
  readonly resume: boolean;
  readonly auth: Auth;
  /** The bearer token (sent unless `auth` is `none`). */
  readonly token: string;
  /** The value of `X-Api-Key`, a header named in `secretHeaders`; `null` for none. */
  readonly apiKey: string | null;
  /**
   * `X-Api-Key` given twice: sent joined with {@link SECOND_API_KEY} (`Headers` writes them as
   * `apiKey, second`), while the server reflects `apiKey` alone. (Absent in older findings: once.)
   */
  readonly apiKeyTwice?: boolean | undefined;
  readonly pieces: readonly Piece[];
  /** `tool-annotation`: how many parameters carry an invalid annotation (past 4, the message counts the rest). */
  readonly params: number;
  /** `tool-annotation`: whether the tool's name and its first property's key are the text too. */
  readonly toolNamed: boolean;
}

/** The bounds test/hostile-server.test.ts holds a message and a detail to (see there why). */
const MESSAGE_BOUND = 4096;
const RUN_BOUND = PREFIX;
const DETAIL_BOUND = 6 * DETAIL_PREFIX + 1;

/** The longest text built: about 1 MiB, and a little over. */
const MAX_TEXT = (1 << 20) + 4096;

/**
 * The byte cap: past the largest body (the text three times, each character escaped to 6 bytes),
 * so that a big text reaches its site rather than the cap.
 */
const MAX_BYTES = 1 << 26;

/** Far more than a run takes (milliseconds): a site that takes longer is a finding, `timeout`. */
const TIMEOUT_MS = 10_000;

const URL_OF_SERVER = 'http://hostile.invalid/mcp';
const SESSION = 'quoting-sites-session';

const RAW_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------

const charArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...UNSAFE_CODES).map((code) => String.fromCharCode(code)) },
  { weight: 2, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)) },
  // A pair a cut may split, quotes and escapes of every syntax a site has, terminal sequences, plain text.
  { weight: 4, arbitrary: fc.constantFrom('\u{1f600}', '\u00e9', '\u200b', '\ufeff', '\u2026', '"', '\\', '%', ',', '=', ';', ' ', '\r\n', 'x', 'Bearer ', '[redacted]', '\u001b[2K', '\u009b31m', '\u001b]0;owned\u0007') },
);

const SECRET_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=';

/** A secret's character: a bearer token's, often; sometimes one a percent-encoding or JSON changes. */
const secretCharArb: fc.Arbitrary<string> = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...SECRET_CHARS) }, { weight: 1, arbitrary: fc.constantFrom('%', '!', '*', "'", '"') });

const secretArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    // No quote at either end: beside a quote's own marks it would be spelled by them (see the module).
    arbitrary: fc.array(secretCharArb, { minLength: MIN_SECRET_LENGTH, maxLength: 64 }).map((chars) => chars.map((c, i) => (c === '"' && (i === 0 || i === chars.length - 1) ? 'q' : c)).join('')),
  },
  { weight: 1, arbitrary: fc.constantFrom('Hostile~Token+Secret/0123456789abcdef=', `eyJhbGciOiJSUzI1NiJ9.${'eyJzdWIiOiIxMjM0NTY3ODkwIn0'.repeat(4)}.sig-_~`, 'tok"quote%percent', "key!*'-~secret") },
);

const pieceArb: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('text' as const), text: fc.string({ unit: 'binary', maxLength: 24 }), times: timesArb }, { noNullPrototype: true }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('text' as const), text: charArb, times: timesArb }, { noNullPrototype: true }) },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        kind: fc.constant('secret' as const),
        which: fc.constantFrom<'token' | 'apiKey'>('token', 'apiKey'),
        form: fc.constantFrom<EncodedForm>('raw', 'raw', 'percent', 'search', 'lower-hex', 'every-byte', 'json', 'bearer'),
        times: fc.oneof({ weight: 6, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 50 }) }),
      },
      { noNullPrototype: true },
    ),
  },
);

/** The statuses of a refusal: none 400, which `AnswerTransport` hands to its client as the answer. */
const REFUSAL_STATUSES = [401, 403, 404, 409, 422, 429, 500, 502, 503];
/** A `server/discover` refused with a status that says nothing of the era, so that `connect` fails with it. */
const DISCOVER_REFUSAL_STATUSES = [401, 403, 500, 502, 503];

const inputArb: fc.Arbitrary<QuotingSitesInput> = fc
  .constantFrom<SiteName>(...EXCHANGE_SITES, ...CONNECT_SITES, 'tool-annotation')
  .chain((site) =>
    fc.record(
      {
        site: fc.constant(site),
        api: fc.constantFrom<Api>('postJsonRpc', 'AnswerTransport', 'AnswerClient'),
        era: fc.constantFrom<'legacy' | 'modern'>('legacy', 'legacy', 'modern'),
        status: fc.constantFrom(...(site === 'discover-refused' ? DISCOVER_REFUSAL_STATUSES : REFUSAL_STATUSES)),
        wrapped: fc.boolean(),
        resume: fc.boolean(),
        auth: fc.constantFrom<Auth>('provider', 'provider-retry', 'authorization', 'none'),
        token: secretArb,
        apiKey: fc.option(secretArb, { nil: null, freq: 3 }),
        apiKeyTwice: fc.boolean(),
        pieces: fc.array(pieceArb, { maxLength: 8 }),
        params: fc.integer({ min: 1, max: 6 }),
        toolNamed: fc.boolean(),
      },
      { noNullPrototype: true },
    ),
  );

/** The server's text the input describes. */
export function sitesText(input: QuotingSitesInput): string {
  let text = '';
  for (const piece of input.pieces) {
    const one = piece.kind === 'text' ? piece.text : encodedSecret(piece.which === 'apiKey' && input.apiKey !== null ? input.apiKey : input.token, piece.form);
    if (one === '') continue;
    text += one.repeat(Math.min(piece.times, Math.ceil((MAX_TEXT - text.length) / one.length)));
    if (text.length >= MAX_TEXT) {
      text = text.slice(0, MAX_TEXT);
      break;
    }
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// The scripted server
// ---------------------------------------------------------------------------------------------

/** One request as the scripted server sees it. */
interface Seen {
  readonly method: string;
  /** The JSON-RPC method of the body, if any. */
  readonly rpc: string | undefined;
  /** The JSON-RPC id of the body (`undefined` for a notification or no body). */
  readonly id: unknown;
}

/** What the scripted server answers: any reason phrase, any header value, any body. */
interface Scripted {
  readonly status: number;
  readonly reason?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  202: 'Accepted',
  307: 'Temporary Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/**
 * Headers that give back any value as it was scripted. A real `Headers` (so that nothing that
 * checks for one is fooled), whose reads are the script's: `Headers` itself would refuse or trim
 * the values a site must be fed.
 */
class ScriptedHeaders extends Headers {
  readonly #values: ReadonlyMap<string, string>;
  constructor(values: Readonly<Record<string, string>>) {
    super();
    this.#values = new Map(Object.entries(values).map(([name, value]) => [name.toLowerCase(), value]));
  }
  override get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }
  override has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }
  override forEach(callback: (value: string, name: string, parent: Headers) => void): void {
    for (const [name, value] of this.#values) callback(value, name, this);
  }
}

/** A `Response` of `reply`: the constructor's for the status and body, the script's own reason phrase and headers (see the module). */
function responseOf(reply: Scripted): Response {
  const response = new Response(reply.body ?? null, { status: reply.status });
  Object.defineProperties(response, {
    statusText: { value: reply.reason ?? REASONS[reply.status] ?? '' },
    headers: { value: new ScriptedHeaders(reply.headers ?? {}) },
  });
  return response;
}

/** A `fetch` that answers each request with `answer`'s reply: no socket, no timer. */
function scriptedFetch(answer: (seen: Seen) => Scripted): FetchFunction {
  return async (_input, init) => {
    let message: { method?: unknown; id?: unknown } | undefined;
    try {
      message = typeof init.body === 'string' ? (JSON.parse(init.body) as typeof message) : undefined;
    } catch {
      message = undefined;
    }
    const rpc = typeof message?.method === 'string' ? message.method : undefined;
    return responseOf(answer({ method: init.method ?? 'GET', rpc, id: message?.id }));
  };
}

function jsonReply(status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): Scripted {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) };
}

/** An MCP server that answers each step as `steps` says, and otherwise as a well-behaved 2025 server with sessions. */
function mcpServer(steps: { readonly discover?: (id: unknown) => Scripted; readonly initialize?: (id: unknown) => Scripted; readonly toolsList?: (id: unknown) => Scripted }): (seen: Seen) => Scripted {
  return (seen) => {
    if (seen.method === 'DELETE') return { status: 200 };
    if (seen.method === 'GET') return { status: 405 };
    switch (seen.rpc) {
      case 'server/discover':
        return steps.discover?.(seen.id) ?? { status: 404 };
      case 'initialize':
        return steps.initialize?.(seen.id) ?? jsonReply(200, { jsonrpc: '2.0', id: seen.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'hostile', version: '1' } } }, { 'mcp-session-id': SESSION });
      case 'tools/list':
        return steps.toolsList?.(seen.id) ?? jsonReply(200, { jsonrpc: '2.0', id: seen.id, result: { tools: [] } });
    }
    if (seen.id === undefined) return { status: 202 };
    return jsonReply(200, { jsonrpc: '2.0', id: seen.id, result: {} });
  };
}

/** A server whose every POST gets `reply`; a resuming GET is refused, a DELETE accepted. */
function siteServer(reply: (id: unknown) => Scripted): (seen: Seen) => Scripted {
  return (seen) => (seen.method === 'GET' ? { status: 405 } : seen.method === 'DELETE' ? { status: 200 } : reply(seen.id));
}

// ---------------------------------------------------------------------------------------------
// The sites
// ---------------------------------------------------------------------------------------------

/** How a run goes for a site. */
interface SitePlan {
  readonly server: (seen: Seen) => Scripted;
  /** How the site is reached. */
  readonly drive: 'exchange' | 'connect' | 'tool';
  /** The codes the error may have; `fallback`: `connect` succeeds by `initialize`, and its refusal text is checked. */
  readonly ends: readonly AnswerErrorCode[] | 'fallback';
  /** What the server sent at the site, as the package reads it: the text whose runs a message may not repeat. */
  readonly served: string;
  /**
   * The quote that shows the site was reached, for an error of `code` (or the fallback's
   * refusal), the server's text redacted by `redact`; `undefined` when the site does not quote
   * the text whole (a challenge cut short by a quote inside it, a JSON value).
   */
  shows(redact: (text: string) => string, code: AnswerErrorCode | undefined): string | undefined;
  /** `initialize-version`: a text that is a 2025 version is accepted, and `connect` succeeds. */
  readonly accepts?: boolean;
}

/** `text` as an HTTP quoted-string's inside: its quotes and backslashes escaped. */
function quotedString(text: string): string {
  return text.replace(/["\\]/g, '\\$&');
}

/** A scheme the challenge parser reads as one word (no `=`: that would start a parameter). */
const SCHEME = /^[!#$%&'*+.^_`|~\w/-]+$/;

const NOTIFICATION = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });

function planOf(input: QuotingSitesInput, text: string): SitePlan {
  const exchange = (reply: (id: unknown) => Scripted, ends: readonly AnswerErrorCode[], served: string, shows: SitePlan['shows']): SitePlan => ({ server: siteServer(reply), drive: 'exchange', ends, served, shows });
  const connect = (steps: Parameters<typeof mcpServer>[0], ends: SitePlan['ends'], shows: SitePlan['shows']): SitePlan => ({ server: mcpServer(steps), drive: 'connect', ends, served: text, shows });
  const { status } = input;
  switch (input.site) {
    case 'reason':
      // An empty reason phrase is left out of the message.
      return exchange(() => ({ status, reason: text }), ['http_status'], text, (redact) => (text === '' ? undefined : `HTTP ${status} ${shortText(redact(text))}`));
    case 'rpc-message':
      // The text as the message, in the data, and as a key of the data: `detail.answer` holds it all, redacted.
      return exchange(
        (id) => jsonReply(status, { jsonrpc: '2.0', id, error: { code: -32000, message: text, data: { echo: [text], [text]: 'seen' } } }),
        ['http_status'],
        text,
        (redact) => `${quoteText(redact(text))} (JSON-RPC error -32000)`,
      );
    case 'www-authenticate-error': {
      const value = input.wrapped ? quotedString(text) : text;
      const header = `Bearer realm="${value}", error="${value}", error_description="${value}"`;
      return exchange(() => ({ status: 401, headers: { 'www-authenticate': header } }), ['http_status'], text, (redact) => (input.wrapped ? `(Bearer error ${quoteText(redact(text))})` : undefined));
    }
    case 'www-authenticate-scope': {
      const value = input.wrapped ? quotedString(text) : text;
      return exchange(
        () => ({ status: 403, headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${value}"` } }),
        ['http_status'],
        text,
        (redact) => (input.wrapped ? `scope ${quoteText(redact(text))})` : undefined),
      );
    }
    case 'www-authenticate-scheme':
      return exchange(
        () => ({ status: 401, headers: { 'www-authenticate': `${text} error="invalid_token"` } }),
        ['http_status'],
        text,
        (redact) => (SCHEME.test(text) ? `(${shortText(redact(text))} error "invalid_token")` : undefined),
      );
    case 'location': {
      const location = `http://elsewhere.invalid/${text}`;
      return exchange(() => ({ status: 307, headers: { location } }), ['http_status'], location, (redact) => `to ${quoteText(redact(location))}, not followed`);
    }
    case 'content-type': {
      const type = input.wrapped ? `text/plain; token=${text}` : text;
      // A text that happens to be a type the package reads is read: '{}' is no answer.
      return exchange(() => ({ status: 200, headers: { 'content-type': type }, body: '{}' }), ['unsupported_content_type', 'malformed_answer', 'stream_failed'], type, (redact, code) =>
        code === 'unsupported_content_type' ? `content type ${quoteText(redact(type))}` : undefined,
      );
    }
    case 'last-event-id': {
      // What an id line can hold (no CR, LF or NUL: a NUL makes the scanner ignore the id), as the scanner decodes it.
      const id = new TextDecoder().decode(new TextEncoder().encode(text.replace(/[\r\n\0]/g, '')));
      const body = `retry: 0\nid: ${id}\ndata: ${NOTIFICATION}\n\n`;
      return exchange(
        () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body }),
        [input.era === 'modern' ? 'stream_failed' : 'malformed_answer'],
        id,
        (redact) => `last event id ${quoteText(redact(id))}`,
      );
    }
    case 'discover-code':
      return connect({ discover: (id) => jsonReply(400, { jsonrpc: '2.0', id, error: { code: text, message: 'no' } }) }, 'fallback', (redact) => `JSON-RPC ${shortText(redact(JSON.stringify(text)))}`);
    case 'discover-legacy-versions': {
      // Ten versions of the text: the refusal names eight, and counts the rest. Two of a long
      // text: ten of a megabyte of escapes would be a body past any cap, and one quote is as long as another.
      const supported = Array<string>(text.length <= 1 << 16 ? 10 : 2).fill(text);
      return connect(
        { discover: (id) => jsonReply(400, { jsonrpc: '2.0', id, error: { code: -32022, message: 'unsupported', data: { supported } } }) },
        'fallback',
        (redact) => `it supports ${shortText(redact(text))}, `,
      );
    }
    case 'discover-result-versions':
      return connect({ discover: (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { supportedVersions: [text, '2025-11-25'] } }) }, 'fallback', (redact) => `it supports only ${shortText(redact(text))}, 2025-11-25`);
    case 'discover-header-mismatch':
      return connect({ discover: (id) => jsonReply(200, { jsonrpc: '2.0', id, error: { code: -32020, message: text } }) }, ['negotiation_failed'], (redact) => `HeaderMismatch (-32020): ${shortText(redact(text))}`);
    case 'discover-no-common-version':
      return connect(
        { discover: (id) => jsonReply(200, { jsonrpc: '2.0', id, error: { code: -32022, message: text, data: { supported: [text, '2027-01-01'] } } }) },
        ['negotiation_failed'],
        (redact) => `the server supports ${shortText(redact(text))}, 2027-01-01;`,
      );
    case 'discover-refused':
      return connect({ discover: (id) => jsonReply(status, { jsonrpc: '2.0', id, error: { code: -32000, message: text } }) }, ['http_status'], (redact) => `${quoteText(redact(text))} (JSON-RPC error -32000)`);
    case 'initialize-no-version': {
      // The whole answer is quoted as JSON: as parsed and written again, the same text as sent.
      const answer = (id: unknown): Record<string, unknown> => ({ jsonrpc: '2.0', id, result: { serverInfo: { name: text, version: '1' } } });
      return connect({ initialize: (id) => jsonReply(200, answer(id), { 'mcp-session-id': SESSION }) }, ['negotiation_failed'], (redact) => `initialize: ${quoteText(redact(JSON.stringify(answer(0))))}`);
    }
    case 'initialize-version':
      return {
        ...connect(
          { initialize: (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { protocolVersion: text, capabilities: {} } }, { 'mcp-session-id': SESSION }) },
          ['negotiation_failed'],
          (redact) => `protocol version ${quoteText(redact(text))}, which is no 2025-era version`,
        ),
        accepts: /^\d{4}-\d{2}-\d{2}$/.test(text) && text < MODERN_PROTOCOL_VERSION,
      };
    case 'tool-annotation': {
      const name = toolNameOf(input, text);
      // Each annotation holds the text and a space, so it is never an HTTP token: always a reason.
      const properties = Object.fromEntries(Array.from({ length: input.params }, (_, i) => [i === 0 && input.toolNamed ? text : `p${i}`, { type: 'string', 'x-mcp-header': `${text} ${i}` }]));
      const tool = { name, inputSchema: { type: 'object', properties } };
      return {
        server: mcpServer({
          discover: (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { supportedVersions: [MODERN_PROTOCOL_VERSION], capabilities: { tools: {} } } }),
          toolsList: (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { tools: [tool] } }),
        }),
        drive: 'tool',
        ends: ['invalid_tool'],
        served: text,
        shows: (redact) => `tool ${quoteText(redact(name))} has invalid x-mcp-header annotations (`,
      };
    }
  }
}

function toolNameOf(input: QuotingSitesInput, text: string): string {
  return input.toolNamed ? text : 'hostile-tool';
}

// ---------------------------------------------------------------------------------------------
// The secrets
// ---------------------------------------------------------------------------------------------

/** The second value of an `X-Api-Key` given twice. */
const SECOND_API_KEY = 'Second-Api-Key-0123456789';

/** The value `X-Api-Key` is sent with: `Headers` joins the values of a header given twice. */
function apiKeySent(input: QuotingSitesInput): string | null {
  return input.apiKey !== null && input.apiKeyTwice === true ? `${input.apiKey}, ${SECOND_API_KEY}` : input.apiKey;
}

/** The exchange's options for `input`: its secrets, its era (by header), its `fetch`. */
function optionsOf(input: QuotingSitesInput, fetch: FetchFunction, eraHeader: boolean): ExchangeOptions {
  const headers = new Headers();
  if (input.auth === 'authorization') headers.set('authorization', `Bearer ${input.token}`);
  if (input.apiKey !== null) headers.append('x-api-key', input.apiKey);
  if (input.apiKey !== null && input.apiKeyTwice === true) headers.append('x-api-key', SECOND_API_KEY);
  if (eraHeader) headers.set('mcp-protocol-version', MODERN_PROTOCOL_VERSION);
  const provider = input.auth === 'provider' || input.auth === 'provider-retry';
  const token = async (): Promise<string> => input.token;
  return {
    fetch,
    headers,
    timeoutMs: TIMEOUT_MS,
    maxBytes: MAX_BYTES,
    resume: input.resume,
    ...(provider ? { authProvider: input.auth === 'provider-retry' ? { token, onUnauthorized: async () => undefined } : { token } } : {}),
    ...(input.apiKey === null ? {} : { secretHeaders: ['X-Api-Key'] }),
  };
}

/**
 * The redaction the exchange applies, built as the exchange builds its own: the caller's headers
 * first, in the order `Headers` keeps them (`authorization` before `x-api-key`), then the
 * provider's token as it is sent — so that the quote a site shows can be foretold exactly.
 */
function redactionOf(input: QuotingSitesInput): Secrets {
  const secrets = new Secrets();
  if (input.auth === 'authorization') secrets.addHeaderValue(`Bearer ${input.token}`);
  const apiKey = apiKeySent(input);
  if (apiKey !== null) secrets.addHeaderValue(apiKey);
  if (input.auth === 'provider' || input.auth === 'provider-retry') secrets.add(input.token);
  return secrets;
}

/** Every form of every secret the exchange sent (at least 8 characters: shorter is none) that must never come back. */
function leakForms(input: QuotingSitesInput): string[] {
  const sent: string[] = [];
  if (input.auth !== 'none') sent.push(input.token);
  if (input.auth === 'authorization') sent.push(`Bearer ${input.token}`);
  if (input.apiKey !== null) sent.push(input.apiKey);
  if (input.apiKey !== null && input.apiKeyTwice === true) sent.push(SECOND_API_KEY);
  const forms = sent.filter((value) => value.length >= MIN_SECRET_LENGTH).flatMap((value) => (['raw', 'percent', 'search', 'lower-hex', 'every-byte', 'json'] as const).map((form) => encodedSecret(value, form)));
  return [...new Set(forms)];
}

// ---------------------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------------------

function shown(text: string): string {
  return text.length <= 300 ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, 240))}… (${text.length} characters)`;
}

/** The first raw unsafe character of `text`, described; `undefined` when there is none. */
function unsafeIn(text: string): string | undefined {
  const found = RAW_UNSAFE.exec(text);
  if (found === null) return undefined;
  return `a raw U+${found[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${found.index}: ${JSON.stringify(text.slice(Math.max(0, found.index - 40), found.index + 40))}`;
}

/** The first form of `forms` in `text` outside every marker and escape, described; `undefined` when there is none. */
function leakIn(text: string, forms: readonly string[]): string | undefined {
  for (const segment of text.split(MARKER_OR_ESCAPE)) {
    const form = forms.find((one) => segment.includes(one));
    if (form !== undefined) return `the secret ${shown(form)} survives at ${text.indexOf(form)} of ${shown(text)}`;
  }
  return undefined;
}

/**
 * The length of the longest run of `text`'s characters (UTF-16 units) that `message` holds, by
 * a suffix automaton of the message fed the text: linear in both, so a 1 MiB text costs a few
 * milliseconds. The characters that frame or escape a quote take no part in a run, so that a
 * text that happens to go on as the package's words do, or that is made of what an escape is
 * made of, is no run past its 64: a quote mark (the server's are always escaped in a message, so
 * a raw `"` is the package's), the ellipsis of a cut, the space of the words before a bare text
 * (`HTTP 401 ` before a reason phrase of spaces), and the backslash of an escape (a text of
 * backslashes is quoted as twice as many).
 */
function longestRun(message: string, text: string): number {
  const next: Map<number, number>[] = [new Map()];
  const link: number[] = [-1];
  const length: number[] = [0];
  let last = 0;
  for (let i = 0; i < message.length; i += 1) {
    const unit = message.charCodeAt(i);
    // A frame character is a symbol of its own, matched by nothing in the text.
    const symbol = unit === 0x22 || unit === 0x2026 || unit === 0x20 || unit === 0x5c ? -1 - i : unit;
    const current = next.length;
    next.push(new Map());
    length.push(length[last]! + 1);
    link.push(0);
    let p = last;
    while (p !== -1 && !next[p]!.has(symbol)) {
      next[p]!.set(symbol, current);
      p = link[p]!;
    }
    if (p !== -1) {
      const q = next[p]!.get(symbol)!;
      if (length[p]! + 1 === length[q]) link[current] = q;
      else {
        const clone = next.length;
        next.push(new Map(next[q]!));
        length.push(length[p]! + 1);
        link.push(link[q]!);
        while (p !== -1 && next[p]!.get(symbol) === q) {
          next[p]!.set(symbol, clone);
          p = link[p]!;
        }
        link[q] = clone;
        link[current] = clone;
      }
    }
    last = current;
  }
  let state = 0;
  let run = 0;
  let best = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    while (state !== 0 && !next[state]!.has(unit)) {
      state = link[state]!;
      run = length[state]!;
    }
    const to = next[state]!.get(unit);
    if (to === undefined) {
      run = 0;
      continue;
    }
    state = to;
    run += 1;
    if (run > best) best = run;
  }
  return best;
}

/** Checks one message (or a fallback's refusal) that may quote `served`. */
function checkMessage(where: string, message: string, served: string, forms: readonly string[]): void {
  ensure(message.length <= MESSAGE_BOUND, () => `${where}: ${message.length} characters, over ${MESSAGE_BOUND}: ${shown(message)}`);
  const unsafe = unsafeIn(message);
  ensure(unsafe === undefined, () => `${where}: ${unsafe}`);
  const run = longestRun(message, served);
  ensure(run <= RUN_BOUND, () => `${where}: ${run} of the server's characters in a row, over ${RUN_BOUND}: ${shown(message)}`);
  const leak = leakIn(message, forms);
  ensure(leak === undefined, () => `${where}: ${leak}`);
}

/** Every string of a JSON tree, keys and values, with its path. */
function* stringsOf(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') {
    yield [path, value];
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    yield [`${path} key`, key];
    yield* stringsOf(child, `${path}.${key.length > 20 ? `${key.slice(0, 20)}…` : key}`);
  }
}

/** Checks an `AnswerError` of the run, and any `AnswerError` that is its cause. */
function checkError(where: string, error: AnswerError, served: string, forms: readonly string[], depth = 0): void {
  checkMessage(`${where} (${error.code}), the message`, error.message, served, forms);
  const { answer, ...fields } = error.detail;
  for (const [path, value] of stringsOf(fields, 'detail')) {
    ensure(value.length <= DETAIL_BOUND, () => `${where} (${error.code}), ${path}: ${value.length} characters, over ${DETAIL_BOUND}`);
    const unsafe = unsafeIn(value);
    ensure(unsafe === undefined, () => `${where} (${error.code}), ${path}: ${unsafe}`);
    const leak = leakIn(value, forms);
    ensure(leak === undefined, () => `${where} (${error.code}), ${path}: ${leak}`);
  }
  for (const [path, value] of stringsOf(answer, 'detail.answer')) {
    const leak = leakIn(value, forms);
    ensure(leak === undefined, () => `${where} (${error.code}), ${path}: ${leak}`);
  }
  // A 2026 request lost with its stream carries the failure that ended it as its cause.
  if (isAnswerError(error.cause) && depth < 4) checkError(`${where}, its cause`, error.cause, served, forms, depth + 1);
}

/** What a run came to. */
interface Outcome {
  /** What the call threw; `undefined` when it returned. */
  readonly thrown: unknown;
  /** `AnswerTransport`'s `onerror` reports. */
  readonly reported: readonly unknown[];
  /** A fallback's `negotiatedBy.refusal`. */
  readonly refusal: string | undefined;
}

async function settled(run: () => Promise<string | undefined>): Promise<{ thrown: unknown; refusal: string | undefined }> {
  try {
    return { thrown: undefined, refusal: await run() };
  } catch (error) {
    return { thrown: error ?? new Broken('the call threw a nullish value'), refusal: undefined };
  }
}

/** Reaches the site through the API the input names. */
async function drive(input: QuotingSitesInput, plan: SitePlan, text: string): Promise<Outcome> {
  const fetch = scriptedFetch(plan.server);
  const modern = plan.drive === 'exchange' && input.era === 'modern';
  const reported: unknown[] = [];
  if (plan.drive === 'exchange') {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    switch (input.api) {
      case 'postJsonRpc': {
        const { thrown } = await settled(async () => {
          await postJsonRpc(URL_OF_SERVER, ping, optionsOf(input, fetch, modern));
          return undefined;
        });
        return { thrown, reported, refusal: undefined };
      }
      case 'AnswerTransport': {
        // Its era by the version the client set, as an MCP client sets it.
        const transport = new AnswerTransport(URL_OF_SERVER, optionsOf(input, fetch, false));
        transport.onerror = (error) => reported.push(error);
        if (modern) transport.setProtocolVersion(MODERN_PROTOCOL_VERSION);
        const { thrown } = await settled(async () => {
          await transport.send(ping);
          return undefined;
        });
        await transport.close();
        return { thrown, reported, refusal: undefined };
      }
      case 'AnswerClient': {
        const client = await AnswerClient.connect(URL_OF_SERVER, { ...optionsOf(input, fetch, modern), handshake: false });
        const { thrown } = await settled(async () => {
          await client.request('ping');
          return undefined;
        });
        await client.close();
        return { thrown, reported, refusal: undefined };
      }
    }
  }
  if (plan.drive === 'connect') {
    const outcome = await settled(async () => {
      const client = await AnswerClient.connect(URL_OF_SERVER, optionsOf(input, fetch, false));
      await client.close();
      return client.negotiatedBy.by === 'initialize' ? client.negotiatedBy.refusal : undefined;
    });
    return { ...outcome, reported };
  }
  const client = await AnswerClient.connect(URL_OF_SERVER, optionsOf(input, fetch, false));
  ensure(client.era === 'modern', () => `tool-annotation: the client settled on ${client.era}, not 2026-07-28`);
  const { thrown } = await settled(async () => {
    await client.request('tools/call', { name: toolNameOf(input, text), arguments: {} });
    return undefined;
  });
  await client.close();
  return { thrown, reported, refusal: undefined };
}

export async function checkQuotingSites(input: QuotingSitesInput): Promise<void> {
  const text = sitesText(input);
  const plan = planOf(input, text);
  const forms = leakForms(input);
  const redaction = redactionOf(input);
  const redact = (one: string): string => redaction.redact(one);
  const where = `${input.site} via ${plan.drive === 'exchange' ? `${input.api} (${input.era})` : 'AnswerClient'}`;
  const outcome = await drive(input, plan, text);

  for (const [i, error] of outcome.reported.entries()) {
    ensure(isAnswerError(error), () => `${where}: onerror got ${String(error)}`);
    checkError(`${where}, onerror #${i}`, error, plan.served, forms);
  }

  if (plan.ends === 'fallback' || plan.accepts === true) {
    ensure(outcome.thrown === undefined, () => `${where}: connect failed where it falls back to initialize: ${outcome.thrown instanceof Error ? `${outcome.thrown.name}: ${shown(outcome.thrown.message)}` : String(outcome.thrown)}`);
    if (plan.ends !== 'fallback') return;
    const refusal = outcome.refusal;
    ensure(refusal !== undefined, () => `${where}: connect fell back with no refusal to say`);
    checkMessage(`${where}, negotiatedBy.refusal`, refusal, plan.served, forms);
    const shows = plan.shows(redact, undefined);
    ensure(shows === undefined || refusal.includes(shows), () => `${where}: the refusal ${shown(refusal)} does not show ${shown(shows ?? '')}`);
    return;
  }

  const { thrown } = outcome;
  const ends = plan.ends;
  ensure(isAnswerError(thrown), () => `${where}: not an AnswerError: ${thrown instanceof Error ? `${thrown.name}: ${shown(thrown.message)}` : String(thrown)}`);
  ensure(ends.includes(thrown.code), () => `${where}: ${thrown.code}, not ${ends.join(' or ')}: ${shown(thrown.message)}`);
  checkError(where, thrown, plan.served, forms);
  const shows = plan.shows(redact, thrown.code);
  ensure(shows === undefined || thrown.message.includes(shows), () => `${where}: the message ${shown(thrown.message)} does not show ${shown(shows ?? '')}`);
}

export const quotingSitesTarget = defineTarget<QuotingSitesInput>({
  name: 'quoting-sites',
  summary: 'server text at every quoting site, through postJsonRpc, AnswerTransport and AnswerClient: bounded, escaped, the site reached, no secret left',
  async: true,
  arbitrary: inputArb,
  check: checkQuotingSites,
});
