/**
 * A generated server behind a fake `fetch`: each call of the exchange gets the next planned
 * reply — a `Response` (any status, odd headers, a JSON or event-stream body cut at random,
 * broken, stalled or endless), a throw, a rejection, a hang, or junk that is not a `Response`.
 * It records every call and every body it handed out, so that a check can tell where requests
 * went and whether each body was released. Its own timers are the real ones, taken at import,
 * so that a check may count the timers of the code under test by shimming the globals.
 */
import { chunksOf } from './bodies.js';
import { reasonOf, type ReasonKind } from './faulty-body.js';

const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

/** A message a body may carry, written for the exchange's request id. */
export type MessageKind = 'answer' | 'error' | 'other-id' | 'notification' | 'server-request' | 'garbage' | 'priming';

/** One event of an event-stream body. */
export interface EventPlan {
  readonly id: string | null;
  readonly retry: string | null;
  readonly data: MessageKind;
}

/** What a body holds. */
export type BodyPlan =
  | { readonly format: 'json'; readonly data: MessageKind | 'batch' | 'empty' }
  | { readonly format: 'event-stream'; readonly events: readonly EventPlan[]; readonly eol: '\n' | '\r\n' };

/** What goes wrong with a body, at which read (0-based). */
export type BodyFault =
  | { readonly kind: 'none' }
  | { readonly kind: 'reset'; readonly at: number }
  | { readonly kind: 'stall'; readonly at: number }
  | { readonly kind: 'abort-caller'; readonly at: number; readonly reason: ReasonKind }
  | { readonly kind: 'endless' };

/** A body: its contents, where it is cut short (per mille of its length; 1000 and more: whole), its chunking, its fault. */
export interface BodySpec {
  readonly plan: BodyPlan;
  readonly keep: number;
  /** Chunk boundaries, per mille of the kept length. */
  readonly cuts: readonly number[];
  readonly fault: BodyFault;
  readonly cancel: 'ok' | 'throw' | 'reject';
}

/** Something a fake `fetch` resolves with that is not a `Response`. */
export type JunkKind = 'null' | 'undefined' | 'object' | 'string' | 'response-like' | 'bare-response' | 'thenable-throws';

/** What one call of the fake `fetch` does. */
export type Reply =
  | {
      readonly kind: 'respond';
      /** Milliseconds before the response comes (0: a resolved promise). */
      readonly delay: number;
      readonly status: number;
      readonly contentType: string | null;
      readonly location: string | null;
      readonly sessionId: string | null;
      readonly retryAfter: string | null;
      readonly body: BodySpec | null;
    }
  | { readonly kind: 'throw' }
  | { readonly kind: 'reject' }
  | { readonly kind: 'hang'; readonly honoursSignal: boolean }
  | { readonly kind: 'junk'; readonly value: JunkKind }
  | { readonly kind: 'abort-caller'; readonly reason: ReasonKind };

/** A plain 200 JSON response, the base of a bare one. */
const BARE: Extract<Reply, { kind: 'respond' }> = { kind: 'respond', delay: 0, status: 200, contentType: 'application/json', location: null, sessionId: null, retryAfter: null, body: null };

/** Past the planned replies, every call is refused like this. */
export const DEFAULT_REPLY: Reply = { kind: 'respond', delay: 0, status: 503, contentType: null, location: null, sessionId: null, retryAfter: null, body: null };

/** What the source of a body saw. */
export interface SourceRecord {
  pulls: number;
  cancelled: boolean;
  closed: boolean;
  errored: boolean;
  /** The call that handed it out; -1 for a late response delivered after the exchange settled. */
  readonly call: number;
}

/** A message of a body, with the offset where its text ends. */
export interface Served {
  readonly message: unknown;
  readonly end: number;
}

/** One call of the fake `fetch`. */
export interface Call {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: unknown;
  readonly redirect: unknown;
  readonly signal: AbortSignal | undefined;
  readonly reply: Reply;
  /** The Response handed out, once it was. */
  response: Response | undefined;
  /** Whether the call's promise settled (a hang never does, unless the signal ends it). */
  settled: boolean;
  /** For a body served: its kept bytes' length and the messages that lie wholly within them. */
  served: { readonly length: number; readonly messages: readonly Served[]; readonly ids: readonly string[] } | undefined;
}

/** The text of a message of `kind` for `requestId`; `undefined` for a priming event's empty data. */
function messageText(kind: MessageKind, requestId: number | string, n: number): string {
  const id = JSON.stringify(requestId);
  switch (kind) {
    case 'answer':
      return `{"jsonrpc":"2.0","id":${id},"result":{"n":${n}}}`;
    case 'error':
      return `{"jsonrpc":"2.0","id":${id},"error":{"code":-32000,"message":"no ${n}"}}`;
    case 'other-id':
      return `{"jsonrpc":"2.0","id":${JSON.stringify(typeof requestId === 'number' ? requestId + 1 : `${requestId}x`)},"result":{"n":${n}}}`;
    case 'notification':
      return `{"jsonrpc":"2.0","method":"notifications/progress","params":{"n":${n}}}`;
    case 'server-request':
      return `{"jsonrpc":"2.0","id":"s${n}","method":"ping"}`;
    case 'garbage':
      return '{"jsonrpc":';
    case 'priming':
      return '';
  }
}

const encoder = new TextEncoder();

/** The bytes of a body, and its messages with the offsets where their texts end. */
export function bodyBytes(plan: BodyPlan, requestId: number | string): { bytes: Uint8Array; messages: Served[]; ids: { id: string; start: number; end: number }[] } {
  const messages: Served[] = [];
  const ids: { id: string; start: number; end: number }[] = [];
  let text = '';
  const add = (s: string): void => {
    text += s;
  };
  const length = (): number => encoder.encode(text).length;
  const parsed = (t: string): unknown => {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return undefined;
    }
  };
  if (plan.format === 'json') {
    if (plan.data === 'batch') {
      add(`[${messageText('notification', requestId, 0)},${messageText('answer', requestId, 1)}]`);
      messages.push({ message: parsed(messageText('answer', requestId, 1)), end: length() });
    } else if (plan.data !== 'empty') {
      const t = messageText(plan.data, requestId, 0);
      add(t);
      const m = parsed(t);
      if (m !== undefined) messages.push({ message: m, end: length() });
    }
  } else {
    plan.events.forEach((event, n) => {
      if (event.id !== null) {
        add('id: ');
        const start = length();
        add(event.id);
        ids.push({ id: event.id, start, end: length() });
        add(plan.eol);
      }
      if (event.retry !== null) add(`retry: ${event.retry}${plan.eol}`);
      const t = messageText(event.data, requestId, n);
      // A final event cut before its line end is still dispatched (answer-path guide): its text is enough.
      add(`data: ${t}`);
      const m = parsed(t);
      if (m !== undefined) messages.push({ message: m, end: length() });
      add(`${plan.eol}${plan.eol}`);
    });
  }
  return { bytes: encoder.encode(text), messages, ids };
}

/** The generated server of one exchange: its `fetch`, what it saw, and a way to settle everything it left pending. */
export interface FakeServer {
  readonly fetch: (input: string | URL, init: RequestInit) => Promise<Response>;
  readonly calls: Call[];
  readonly sources: SourceRecord[];
  /**
   * Ends what is still pending once the exchange settled: planned delays are cut short, and every
   * call that never settled gets a late `Response`, whose body the exchange must release too.
   */
  flush(): void;
  /** Clears the server's own timers. */
  dispose(): void;
}

/**
 * A server that answers call `k` with `replies[k]` ({@link DEFAULT_REPLY} past them), for a
 * request with `requestId`; `abortCaller` aborts the caller's signal (for replies and faults that do).
 */
export function fakeServer(replies: readonly Reply[], requestId: number | string, abortCaller: (reason: ReasonKind) => void): FakeServer {
  const calls: Call[] = [];
  const sources: SourceRecord[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  /** Deliveries waiting for a timer, and calls that hang: each can be ended by flush. */
  const pending = new Set<() => void>();

  const later = (ms: number, run: () => void): void => {
    const timer = realSetTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  function makeBody(spec: BodySpec, call: number): { stream: ReadableStream<Uint8Array>; served: NonNullable<Call['served']> } {
    const { bytes, messages, ids } = bodyBytes(spec.plan, requestId);
    const kept = spec.keep >= 1000 ? bytes.length : Math.floor((bytes.length * spec.keep) / 1000);
    const cuts = [...new Set(spec.cuts.map((c) => Math.floor((kept * Math.min(c, 1000)) / 1000)))].sort((a, b) => a - b);
    const chunks = chunksOf(bytes.subarray(0, kept), cuts);
    const record: SourceRecord = { pulls: 0, cancelled: false, closed: false, errored: false, call };
    sources.push(record);
    const heartbeat = encoder.encode(spec.plan.format === 'json' ? ' ' : ': ping\n\n');
    const { fault } = spec;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller): Promise<void> | undefined {
          const at = record.pulls++;
          if ('at' in fault && fault.at === at) {
            switch (fault.kind) {
              case 'reset':
                record.errored = true;
                controller.error(new TypeError('terminated', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }));
                return undefined;
              case 'stall':
                return new Promise<void>(() => {});
              case 'abort-caller':
                abortCaller(fault.reason);
                break;
            }
          }
          if (at < chunks.length) {
            controller.enqueue(chunks[at]!);
            return undefined;
          }
          if (fault.kind === 'endless') {
            controller.enqueue(heartbeat.slice());
            return undefined;
          }
          record.closed = true;
          controller.close();
          return undefined;
        },
        cancel() {
          record.cancelled = true;
          if (spec.cancel === 'throw') throw new Error('cancel failed');
          if (spec.cancel === 'reject') return Promise.reject(new Error('cancel failed'));
          return undefined;
        },
      },
      { highWaterMark: 0 },
    );
    const within = (end: number): boolean => end <= kept;
    return {
      stream,
      served: {
        length: kept,
        messages: messages.filter((m) => within(m.end)),
        // An id line cut short by the end of the body still sets the id (a final line is read at the end).
        ids: ids.filter((i) => i.start <= kept).map((i) => (within(i.end) ? i.id : new TextDecoder().decode(bytes.subarray(i.start, kept)))),
      },
    };
  }

  function makeResponse(reply: Extract<Reply, { kind: 'respond' }>, call: Call, index: number): Response {
    const headers = new Headers();
    if (reply.contentType !== null) headers.set('content-type', reply.contentType);
    if (reply.location !== null) headers.set('location', reply.location);
    if (reply.sessionId !== null) headers.set('mcp-session-id', reply.sessionId);
    if (reply.retryAfter !== null) headers.set('retry-after', reply.retryAfter);
    // A Response holds 200–599 only; 1xx is what a broken fetch could still hand over.
    const interim = reply.status < 200;
    const nullBody = [204, 205, 304].includes(reply.status);
    let stream: ReadableStream<Uint8Array> | null = null;
    if (reply.body !== null && !nullBody) {
      const made = makeBody(reply.body, index);
      stream = made.stream;
      call.served = made.served;
    }
    const response = new Response(stream, { status: interim ? 200 : reply.status, headers });
    if (interim) Object.defineProperties(response, { status: { value: reply.status }, ok: { value: false } });
    return response;
  }

  /** A late response for a call that never settled: an endless event stream. */
  function lateResponse(): Response {
    const spec: BodySpec = { plan: { format: 'event-stream', events: [{ id: 'late', retry: null, data: 'answer' }], eol: '\n' }, keep: 1000, cuts: [], fault: { kind: 'endless' }, cancel: 'ok' };
    return new Response(makeBody(spec, -1).stream, { headers: { 'content-type': 'text/event-stream' } });
  }

  function junk(kind: JunkKind): unknown {
    switch (kind) {
      case 'null':
        return null;
      case 'undefined':
        return undefined;
      case 'object':
        return {};
      case 'string':
        return '{"jsonrpc":"2.0","id":1,"result":{}}';
      case 'response-like':
      case 'bare-response':
      case 'thenable-throws':
        return undefined; // handled by the caller: these are not promises at all
    }
  }

  const fetch = (input: string | URL, init: RequestInit): Promise<Response> => {
    const index = calls.length;
    const reply = replies[index] ?? DEFAULT_REPLY;
    const call: Call = {
      url: String(input),
      method: String(init.method ?? 'GET'),
      headers: new Headers(init.headers),
      body: init.body,
      redirect: init.redirect,
      signal: init.signal ?? undefined,
      reply,
      response: undefined,
      settled: false,
      served: undefined,
    };
    calls.push(call);
    const settle = <T>(p: Promise<T>): Promise<T> =>
      p.finally(() => {
        call.settled = true;
      });
    switch (reply.kind) {
      case 'throw':
        throw new TypeError('fetch threw: bad init');
      case 'reject':
        return settle(Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })));
      case 'junk': {
        if (reply.value === 'bare-response') {
          // A Response itself, not a promise of one.
          const response = makeResponse({ ...BARE, body: { plan: { format: 'json', data: 'answer' }, keep: 1000, cuts: [], fault: { kind: 'none' }, cancel: 'ok' } }, call, index);
          call.response = response;
          call.settled = true;
          return response as unknown as Promise<Response>;
        }
        if (reply.value === 'response-like') {
          // Everything the exchange reads of a Response, on a plain object: a 200 without a body.
          const value = { status: 200, ok: true, type: 'basic', headers: new Headers({ 'content-type': 'application/json' }), body: null, bodyUsed: false };
          return settle(
            Promise.resolve(value as unknown as Response).then((response) => {
              call.response = response;
              return response;
            }),
          );
        }
        if (reply.value === 'thenable-throws') {
          call.settled = true;
          return {
            then() {
              throw new Error('then threw');
            },
          } as unknown as Promise<Response>;
        }
        return settle(Promise.resolve(junk(reply.value) as Response));
      }
      case 'abort-caller':
      case 'hang':
        return settle(
          new Promise<Response>((resolve, reject) => {
            const signal = init.signal;
            const deliver = (): void => {
              pending.delete(deliver);
              if (signal !== undefined && signal !== null) signal.removeEventListener('abort', onAbort);
              const response = lateResponse();
              call.response = response;
              resolve(response);
            };
            const onAbort = (): void => {
              pending.delete(deliver);
              reject(signal?.reason);
            };
            pending.add(deliver);
            // A fetch that honours its signal rejects with its reason, as the platform's does.
            const honours = reply.kind === 'abort-caller' || reply.honoursSignal;
            if (honours && signal !== undefined && signal !== null) {
              if (signal.aborted) onAbort();
              else signal.addEventListener('abort', onAbort, { once: true });
            }
            if (reply.kind === 'abort-caller') abortCaller(reply.reason);
          }),
        );
      case 'respond': {
        const response = makeResponse(reply, call, index);
        if (reply.delay === 0) {
          call.response = response;
          return settle(Promise.resolve(response));
        }
        return settle(
          new Promise<Response>((resolve) => {
            const deliver = (): void => {
              pending.delete(deliver);
              call.response = response;
              resolve(response);
            };
            pending.add(deliver);
            later(reply.delay, deliver);
          }),
        );
      }
    }
  };

  return {
    fetch,
    calls,
    sources,
    flush() {
      for (const timer of timers) realClearTimeout(timer);
      timers.clear();
      for (const deliver of [...pending]) deliver();
    },
    dispose() {
      for (const timer of timers) realClearTimeout(timer);
      timers.clear();
    },
  };
}

/** Aborts `controller` with a fresh reason of `kind`, once. */
export function abortWith(controller: AbortController, kind: ReasonKind): void {
  if (!controller.signal.aborted) controller.abort(reasonOf(kind));
}

export { realClearTimeout, realSetTimeout };
