// Bodies the suite reads from, and that watch how they are read: a web ReadableStream, an async
// iterable, and an async iterable with `destroy()` (the shape of a Node stream). Each produces a
// chunk only when asked, then ends, fails, or goes on forever; `log` says what was done to it.

/**
 * A body of `chunks` (Uint8Array), of the given `shape`: 'stream', 'iterable' or 'destroyable'.
 * `endless`: a chunk repeated after them for as long as they are read; `error`: a message the
 * body fails with after them. `log.pulls` counts reads, `log.closed` says the body reached its
 * end, `log.cancelled` that it was cancelled (stream) or returned (iterator), `log.destroyed`
 * that `destroy()` was called.
 */
export function watchedBody(shape, chunks, { endless, error } = {}) {
  const log = { pulls: 0, closed: false, cancelled: false, destroyed: false };
  /** The next read: a chunk, or undefined at the end; throws the body's error. */
  const produce = () => {
    log.pulls++;
    if (log.pulls <= chunks.length) return chunks[log.pulls - 1];
    if (endless !== undefined) return endless.slice();
    if (error !== undefined) throw new Error(error);
    log.closed = true;
    return undefined;
  };
  if (shape === 'stream') {
    const body = new ReadableStream(
      {
        pull(controller) {
          const chunk = produce();
          if (chunk === undefined) controller.close();
          else controller.enqueue(chunk);
        },
        cancel() {
          log.cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    return { body, log };
  }
  const iterator = {
    async next() {
      const chunk = produce();
      return chunk === undefined ? { done: true, value: undefined } : { done: false, value: chunk };
    },
    async return() {
      log.cancelled = true;
      return { done: true, value: undefined };
    },
  };
  const body = { [Symbol.asyncIterator]: () => iterator };
  if (shape === 'destroyable') {
    body.destroy = () => {
      log.destroyed = true;
    };
  }
  return { body, log };
}

/** Whether the body was released before its end, as its shape is released. */
export function wasReleased(shape, log) {
  return shape === 'destroyable' ? log.destroyed : log.cancelled;
}

/** Whether the body was read to its end and not released. */
export function wasDrained(log) {
  return log.closed && !log.cancelled && !log.destroyed;
}

/** Lets releases that a driver started without awaiting them reach the source. */
export async function settled() {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
}
