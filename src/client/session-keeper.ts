/** One session state kept, for `AnswerClient` and `AnswerTransport` alike, and what its steps say done: the DELETE of each session let go of, and `close()`. The rules are `session.ts`'s. @module */

import { ownController } from '../drivers/abort-watch.js';
import { endAbandonedSession, endSession, type SessionEnd } from './end-session.js';
import type { ExchangeSettings } from './exchange-options.js';
import { deleteVersion, sessionStep, type SessionEvent, type SessionState } from './session.js';

/** A DELETE of a session let go of that failed: its failure, or (never meant to happen) what it threw. */
export type EndFailed = Extract<SessionEnd, { kind: 'failed' }> | { readonly kind: 'threw'; readonly error: unknown };

/** Keeps one session state, applies its events, and sends the DELETEs they call for. */
export class SessionKeeper {
  #state: SessionState;
  readonly #url: string | URL;
  readonly #settings: ExchangeSettings;
  readonly #onEndFailed: ((failed: EndFailed) => void) | undefined;
  readonly #closing = ownController();
  readonly #ending = new Set<Promise<void>>();
  readonly #forgotten = new Set<string>();

  /** Keeps `state` for the endpoint at `url`; `onEndFailed` hears of each DELETE of a session let go of that failed. */
  constructor(url: string | URL, settings: ExchangeSettings, state: SessionState, onEndFailed?: (failed: EndFailed) => void) {
    this.#url = url;
    this.#settings = settings;
    this.#state = state;
    this.#onEndFailed = onEndFailed;
  }

  get state(): SessionState {
    return this.#state;
  }

  /** Aborts when `close()` is called: every exchange given it ends then. */
  get signal(): AbortSignal {
    return this.#closing.signal;
  }

  get closed(): boolean {
    return this.#state.phase === 'ending' || this.#state.phase === 'ended';
  }

  /** Applies `event`; each session it lets go of is ended by a DELETE of its own (best effort, no caller's signal), which the promise waits for. */
  apply(event: SessionEvent): Promise<void> {
    const before = this.#state;
    const step = sessionStep(before, event);
    this.#state = step.state;
    if (step.forgotten !== undefined) this.#forgotten.add(step.forgotten);
    return Promise.all(step.end.map((id) => this.#endAside(id, deleteVersion(before)))).then(() => undefined);
  }

  /** Whether the server forgot a session, and none is held since. */
  get lost(): boolean {
    return this.#forgotten.size > 0 && this.#state.phase === 'none';
  }

  /** Whether a refusal said the server forgot `sessionId` (a 404 to a request that carried it). */
  forgot(sessionId: string | undefined): boolean {
    return sessionId !== undefined && this.#forgotten.has(sessionId);
  }

  /** Resolves when every DELETE of a session let go of, started so far, has settled. */
  async endsSettled(): Promise<void> {
    await Promise.all(this.#ending);
  }

  /** Aborts every exchange in flight with `reason` and ends the session held with a DELETE under `signals`; `undefined` when there was none to end, or it was closed. */
  async close(reason: Error, signals: readonly (AbortSignal | undefined)[]): Promise<SessionEnd | undefined> {
    if (this.closed) return undefined;
    const before = this.#state;
    const step = sessionStep(before, { type: 'close' });
    this.#state = step.state;
    this.#closing.abort(reason);
    if (step.closing === undefined) return undefined;
    try {
      return await endSession(this.#url, this.#settings, step.closing, deleteVersion(before), signals);
    } finally {
      this.#state = sessionStep(this.#state, { type: 'ended' }).state;
    }
  }

  #endAside(sessionId: string, version: string | undefined): Promise<void> {
    const done: Promise<void> = endAbandonedSession(this.#url, this.#settings, sessionId, version)
      .then(
        (ended) => {
          if (ended.kind === 'failed') this.#onEndFailed?.(ended);
        },
        (error: unknown) => this.#onEndFailed?.({ kind: 'threw', error }),
      )
      .catch(() => undefined) // a report that throws is the reporter's: nothing here rejects
      .finally(() => this.#ending.delete(done));
    this.#ending.add(done);
    return done;
  }
}
