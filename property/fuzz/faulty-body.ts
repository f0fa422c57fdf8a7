/**
 * A response body that misbehaves on cue: a pull-based source (high-water mark 0, so pull `k` is
 * the reader's read `k`) that delivers a body's chunks and, at a chosen read, errors, aborts the
 * reader's signal, hangs, delivers something that is not bytes, or never ends; and whose cancel
 * may throw, reject or hang. It records what was asked of it.
 */

/** How an abort reason is made: its code is `timeout` only for a `TimeoutError`. */
export type ReasonKind = 'error' | 'timeout' | 'string' | 'default';

/** What goes wrong, and at which read (0-based; read `chunks.length` is the end of the body). */
export type Fault =
  | { readonly kind: 'none' }
  | { readonly kind: 'error'; readonly at: number; readonly how: 'controller' | 'throw' | 'reject' }
  | { readonly kind: 'abort'; readonly at: number; readonly reason: ReasonKind }
  | { readonly kind: 'hang'; readonly at: number; readonly reason: ReasonKind; readonly delay: number }
  | { readonly kind: 'bad-chunk'; readonly at: number; readonly value: BadChunk }
  | { readonly kind: 'endless'; readonly reason: ReasonKind; readonly delay: number }
  | { readonly kind: 'timer'; readonly reason: ReasonKind; readonly delay: number };

/** Chunk values that are not a Uint8Array, some of them dressed as one. */
export type BadChunk = 'string' | 'huge-string' | 'arraybuffer' | 'dataview' | 'fake-uint8-dataview' | 'fake-uint8-float64' | 'uint16' | 'number' | 'null' | 'undefined' | 'array';

/** What the source's cancel does. */
export type CancelKind = 'ok' | 'throw' | 'reject' | 'hang';

/** The abort reason of a kind, fresh. */
export function reasonOf(kind: ReasonKind): unknown {
  switch (kind) {
    case 'error':
      return new Error('stop');
    case 'timeout':
      return new DOMException('The operation timed out.', 'TimeoutError');
    case 'string':
      return 'stop';
    case 'default':
      return undefined; // abort() then makes its own AbortError
  }
}

/** A value of a bad-chunk kind. */
export function badChunkOf(kind: BadChunk): unknown {
  const tag = (view: object): object => Object.defineProperty(view, Symbol.toStringTag, { value: 'Uint8Array' });
  switch (kind) {
    case 'string':
      return 'data: {"id":1,"result":1}\n\n';
    case 'huge-string':
      return 'x'.repeat(1 << 20);
    case 'arraybuffer':
      return new ArrayBuffer(4);
    case 'dataview':
      return new DataView(new ArrayBuffer(4));
    case 'fake-uint8-dataview':
      return tag(new DataView(new ArrayBuffer(4)));
    case 'fake-uint8-float64':
      return tag(new Float64Array(2));
    case 'uint16':
      return new Uint16Array([0x0a0a]);
    case 'number':
      return 10;
    case 'null':
      return null;
    case 'undefined':
      return undefined;
    case 'array':
      return [0x0a, 0x0a];
  }
}

/** What a body that never ends sends after its chunks, again and again: a comment, or JSON whitespace. */
export function heartbeatOf(format: 'event-stream' | 'json'): Uint8Array {
  return new TextEncoder().encode(format === 'json' ? ' ' : ': ping\n\n');
}

/** What the source saw. */
export interface SourceRecord {
  pulls: number;
  cancelled: boolean;
  closed: boolean;
  errored: boolean;
  /** The error the source failed with (`error` faults). */
  readonly error: Error;
}

/**
 * A body over `chunks` with `fault`, whose aborts go to `abort`. Timers it arms are returned in
 * `timers` so that the caller can clear them.
 */
export function faultyBody(
  chunks: readonly Uint8Array[],
  fault: Fault,
  cancel: CancelKind,
  abort: (reason: unknown) => void,
  timers: ReturnType<typeof setTimeout>[],
  format: 'event-stream' | 'json',
): { body: ReadableStream<Uint8Array>; record: SourceRecord } {
  const record: SourceRecord = { pulls: 0, cancelled: false, closed: false, errored: false, error: new Error('the source failed') };
  const heartbeat = heartbeatOf(format);
  const n = chunks.length;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const at = record.pulls++;
        if ('at' in fault && fault.at === at) {
          switch (fault.kind) {
            case 'error':
              record.errored = true;
              if (fault.how === 'throw') throw record.error;
              if (fault.how === 'reject') return Promise.reject(record.error);
              controller.error(record.error);
              return;
            case 'abort':
              abort(reasonOf(fault.reason));
              return;
            case 'hang':
              timers.push(setTimeout(() => abort(reasonOf(fault.reason)), fault.delay));
              return new Promise<void>(() => {});
            case 'bad-chunk':
              controller.enqueue(badChunkOf(fault.value) as Uint8Array);
              return;
          }
        }
        if (at < n) {
          controller.enqueue(chunks[at]!);
          return;
        }
        if (fault.kind === 'endless') {
          // Always ready: a reader that awaits only settled reads never lets a timer run.
          if (at === n) timers.push(setTimeout(() => abort(reasonOf(fault.reason)), fault.delay));
          controller.enqueue(heartbeat.slice());
          return;
        }
        record.closed = true;
        controller.close();
        return;
      },
      cancel() {
        record.cancelled = true;
        if (cancel === 'throw') throw new Error('cancel failed');
        if (cancel === 'reject') return Promise.reject(new Error('cancel failed'));
        if (cancel === 'hang') return new Promise<void>(() => {});
        return undefined;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, record };
}
