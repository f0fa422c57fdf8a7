/**
 * The byte cap over an input read by a command with no answer reducer of its own (`events`): the
 * bytes within `--max-bytes` pass, and the read after them fails, so that no input — one endless
 * event included — makes the command hold more than the cap and a chunk.
 * @module
 */

import { budget, budgetStart, type BudgetState } from '../index.js';

/**
 * `body` cut at `maxBytes`: every byte within the cap is delivered (a chunk that crosses it, up
 * to the cap), then the stream errors with `exceeded(bytes)` — on the next read, so that what was
 * delivered is read first. Cancelling the result cancels `body`; so does going past the cap.
 */
export function capInput(body: ReadableStream<Uint8Array>, maxBytes: number, exceeded: (bytes: number) => Error): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let state: BudgetState = budgetStart(maxBytes);
  let over = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (over) {
          controller.error(exceeded(state.bytes));
          return;
        }
        const next = await reader.read();
        if (next.done) {
          controller.close();
          return;
        }
        const counted = budget(state, next.value);
        state = counted.state;
        if (counted.exceeded) {
          over = true;
          void reader.cancel().catch(() => undefined);
        }
        if (counted.chunk.byteLength > 0) controller.enqueue(counted.chunk);
        else if (over) controller.error(exceeded(state.bytes));
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
