/** The 2025 session as one state and one table of transitions; no other file decides what becomes of a session id (docs/guides/architecture.md). @module */

import type { AnswerDetail } from '../vocabulary/errors.js';
import { said, type Failure } from '../vocabulary/failure.js';
import type { McpEra } from './era.js';
import { hiddenSessionNote } from './page-cors.js';

/** Where a session stands: none held; held; its DELETE on its way (`close()`); ended, for good. */
export type SessionPhase = 'none' | 'held' | 'ending' | 'ended';

/** Who holds an `initialize`'s session: `client` (`AnswerClient`), `transport` (`AnswerTransport`) or `caller` (`postJsonRpc`); see {@link takes}. */
export type SessionKeeping = 'client' | 'transport' | 'caller';

/** A client's session state: its era and version, and the session. Plain data: each event makes a new one. */
export interface SessionState {
  readonly keeping: SessionKeeping;
  readonly era: McpEra;
  /** The version requests are sent in; `undefined` only for 2025 requests with no handshake and no version. */
  readonly protocolVersion: string | undefined;
  readonly phase: SessionPhase;
  readonly sessionId: string | undefined;
  /** An `initialize` was answered with no session id: a page may not have seen one ({@link refusedFor}). */
  readonly noneIssued: boolean;
}

/** What happens to a session. */
export type SessionEvent =
  /** The era and the version were settled (a handshake, `setProtocolVersion`). */
  | { readonly type: 'settled'; readonly era: McpEra; readonly protocolVersion: string | undefined }
  /** An `initialize`'s own response came, with `sessionId` or none; `seen`: its headers reached the holder's owner. */
  | { readonly type: 'issued'; readonly sessionId: string | undefined; readonly answered: boolean; readonly seen: boolean }
  /** A response released on the way (a redirect, a 401 answered, one after the abort) carried `sessionId`. */
  | { readonly type: 'passed-over'; readonly sessionId: string; readonly carried: string | undefined }
  /** The handshake failed: the session it opened is set aside. */
  | { readonly type: 'handshake-failed' }
  /** A request that carried `carried` was refused with `status`. */
  | { readonly type: 'refused'; readonly status: number; readonly carried: string | undefined }
  /** The owner set the session itself (`AnswerTransport.sessionId = …`): it is held as given. */
  | { readonly type: 'set'; readonly sessionId: string | undefined }
  | { readonly type: 'close' }
  /** `close()`'s DELETE settled. */
  | { readonly type: 'ended' };

/** The name of an event. */
export type SessionEventType = SessionEvent['type'];

/** Where each event takes a session in each phase: a phase, or `[if, else]` where the event's facts decide ({@link takes}, {@link forgets}, a `set` with an id). An event not listed is a bug. */
export const SESSION_TRANSITIONS: {
  readonly [P in SessionPhase]: { readonly [E in SessionEventType]?: SessionPhase | readonly [SessionPhase, SessionPhase] };
} = {
  none: { settled: 'none', issued: ['held', 'none'], 'passed-over': 'none', 'handshake-failed': 'none', refused: 'none', set: ['held', 'none'], close: 'ended' },
  held: { settled: 'held', issued: ['held', 'held'], 'passed-over': 'held', 'handshake-failed': 'none', refused: ['none', 'held'], set: ['held', 'none'], close: 'ending' },
  ending: { settled: 'ending', issued: 'ending', 'passed-over': 'ending', 'handshake-failed': 'ending', refused: 'ending', set: 'ending', close: 'ending', ended: 'ended' },
  ended: { settled: 'ended', issued: 'ended', 'passed-over': 'ended', 'handshake-failed': 'ended', refused: 'ended', set: 'ended', close: 'ended' },
};

/** What an event did: the new state, the sessions to end now (best effort), and the one `close()` ends. */
export interface SessionStep {
  readonly state: SessionState;
  /** Sessions nobody will use, to end with a DELETE of their own: every id let go of or not taken, once. */
  readonly end: readonly string[];
  readonly closing: string | undefined;
  /** For a refusal that says the server forgot the session held (a 404): that session. */
  readonly forgotten?: string | undefined;
}

/** A session state with nothing held yet. */
export function sessionStart(keeping: SessionKeeping, era: McpEra, protocolVersion: string | undefined, sessionId?: string): SessionState {
  return { keeping, era, protocolVersion, phase: sessionId === undefined ? 'none' : 'held', sessionId, noneIssued: false };
}

/** Whether an `issued` session is taken: its owner saw it, and a client takes it only with the answer. */
function takes(state: SessionState, event: Extract<SessionEvent, { type: 'issued' }>): boolean {
  return event.sessionId !== undefined && event.seen && (state.keeping !== 'client' || event.answered);
}

/** Whether a refusal says the server forgot the session held: a 404 to a request that carried it. */
function forgets(state: SessionState, event: Extract<SessionEvent, { type: 'refused' }>): boolean {
  return event.status === 404 && event.carried !== undefined && event.carried === state.sessionId;
}

/**
 * The step `event` makes from `state` by {@link SESSION_TRANSITIONS}: each session id that arrives is ended once unless held, but a forgotten one and one a caller replaced.
 * @throws Error for an event its phase does not take.
 */
export function sessionStep(state: SessionState, event: SessionEvent): SessionStep {
  const cell = SESSION_TRANSITIONS[state.phase][event.type];
  if (cell === undefined) throw new Error(`session: ${event.type} is refused in phase ${state.phase}`);
  const held = state.sessionId;
  const step = (phase: SessionPhase, sessionId: string | undefined, end: readonly (string | undefined)[] = [], changes: Partial<SessionState> = {}): SessionStep => ({
    state: { ...state, ...changes, phase, sessionId: phase === 'none' || phase === 'ended' ? undefined : sessionId },
    end: [...new Set(end.filter((id): id is string => id !== undefined && id !== (phase === 'held' || phase === 'ending' ? sessionId : undefined)))],
    closing: undefined,
  });
  switch (event.type) {
    case 'settled':
      return step(state.phase, held, [], { era: event.era, protocolVersion: event.protocolVersion });
    case 'issued': {
      const noneIssued = event.answered && event.sessionId === undefined;
      if (state.phase !== 'none' && state.phase !== 'held') return step(state.phase, held, [event.sessionId]);
      if (!takes(state, event)) return step(state.phase, held, [event.sessionId], { noneIssued });
      // The one it replaces is ended, but a caller's: that is in its hands.
      return step('held', event.sessionId, state.keeping === 'caller' ? [] : [held], { noneIssued: false });
    }
    case 'passed-over':
      return step(state.phase, held, event.sessionId === event.carried ? [] : [event.sessionId]);
    case 'handshake-failed':
      // After close() (a renewal's handshake): what it issued was ended as it came.
      return state.phase === 'held' || state.phase === 'none' ? step('none', undefined, [held]) : step(state.phase, held);
    case 'refused':
      return state.phase === 'held' && forgets(state, event) ? { ...step('none', undefined), forgotten: held } : step(state.phase, held);
    case 'set':
      if (state.phase !== 'none' && state.phase !== 'held') return step(state.phase, held);
      return step(event.sessionId === undefined ? 'none' : 'held', event.sessionId);
    case 'close':
      return state.phase === 'held' ? { ...step('ending', held), closing: held } : step(state.phase === 'none' ? 'ended' : state.phase, held);
    case 'ended':
      return step('ended', undefined);
  }
}

/** The failure of a request whose forgotten session could not be renewed: the renewal failed, or the new one was forgotten too (either is the cause). */
export function sessionExpired(after: { readonly renewal: Failure; readonly detail: AnswerDetail } | { readonly refused: Failure }): Failure {
  const code = 'session_expired';
  if ('refused' in after) return { code, message: said`the server forgot the session (HTTP 404), and it forgot the new one too`, detail: after.refused.detail, restates: after.refused };
  return { code, message: said`the server forgot the session (HTTP 404), and renewing it failed: ${after.renewal.message}`, detail: after.detail, restates: after.renewal };
}

/** The version a session's DELETE carries: the one it was on, when that is a 2025 one. */
export function deleteVersion(state: SessionState): string | undefined {
  return state.era === 'legacy' ? state.protocolVersion : undefined;
}

/** `failure` (a 400 or 404 to a 2025 request with no session, after an `initialize` answered with none) with the note that a page may not see `Mcp-Session-Id`. */
export function refusedFor(state: SessionState, failure: Failure, url: string | URL, status: number, request: { readonly era: McpEra; readonly sessionId: string | undefined }): Failure {
  if (request.era !== 'legacy' || !state.noneIssued || request.sessionId !== undefined || (status !== 400 && status !== 404)) return failure;
  const note = hiddenSessionNote(url);
  return note.length === 1 && note[0] === '' ? failure : { ...failure, message: said`${failure.message}${note}` };
}
