/**
 * session.ts: the session state and its table. Every cell of SESSION_TRANSITIONS is walked —
 * each event in each phase, both branches where the event's facts decide — and every event a
 * phase does not take is refused. The rule "every session id that arrived is ended exactly once
 * unless held" is checked on each step. What the clients make of it end to end is in
 * answer-client*.test.ts, answer-transport*.test.ts, negotiate.test.ts and hostile-server.test.ts.
 */

import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  refusedFor,
  SESSION_TRANSITIONS,
  sessionStart,
  sessionStep,
  type SessionEvent,
  type SessionEventType,
  type SessionKeeping,
  type SessionPhase,
  type SessionState,
} from '../../src/client/session.js';
import { said, written, type Failure } from '../../src/vocabulary/failure.js';
import { nothingRead } from '../../src/vocabulary/failure.js';

const PHASES: readonly SessionPhase[] = ['none', 'held', 'ending', 'ended'];
const EVENTS: readonly SessionEventType[] = ['settled', 'issued', 'passed-over', 'handshake-failed', 'refused', 'set', 'close', 'ended'];

/** A state in `phase`, holding `a` where a phase holds one. */
function inPhase(phase: SessionPhase, keeping: SessionKeeping = 'client'): SessionState {
  const held = phase === 'held' || phase === 'ending';
  return { ...sessionStart(keeping, 'legacy', '2025-11-25', held ? 'a' : undefined), phase };
}

/** Events of each type whose facts take each branch of a cell: [the "if" facts, the "else" facts]. */
const BRANCHES: { readonly [E in SessionEventType]: readonly [SessionEvent, SessionEvent] } = {
  settled: [
    { type: 'settled', era: 'legacy', protocolVersion: '2025-06-18' },
    { type: 'settled', era: 'modern', protocolVersion: '2026-07-28' },
  ],
  issued: [
    { type: 'issued', sessionId: 'b', answered: true, seen: true },
    { type: 'issued', sessionId: 'b', answered: false, seen: true },
  ],
  'passed-over': [
    { type: 'passed-over', sessionId: 'c', carried: undefined },
    { type: 'passed-over', sessionId: 'c', carried: 'c' },
  ],
  'handshake-failed': [{ type: 'handshake-failed' }, { type: 'handshake-failed' }],
  refused: [
    { type: 'refused', status: 404, carried: 'a' },
    { type: 'refused', status: 400, carried: 'a' },
  ],
  set: [
    { type: 'set', sessionId: 'd' },
    { type: 'set', sessionId: undefined },
  ],
  close: [{ type: 'close' }, { type: 'close' }],
  ended: [{ type: 'ended' }, { type: 'ended' }],
};

describe('the table: every cell walked, every event a phase does not take refused', () => {
  const cells = PHASES.flatMap((phase) => EVENTS.map((event) => [phase, event] as const));

  test.each(cells)('%s × %s', (phase, type) => {
    const target = SESSION_TRANSITIONS[phase][type];
    const state = inPhase(phase);
    if (target === undefined) {
      for (const event of BRANCHES[type]) expect(() => sessionStep(state, event)).toThrow(`session: ${type} is refused in phase ${phase}`);
      return;
    }
    const [ifTrue, otherwise] = typeof target === 'string' ? [target, target] : target;
    const [first, second] = BRANCHES[type];
    const stepped = [sessionStep(state, first).state.phase, sessionStep(state, second).state.phase];
    expect(stepped).toEqual([ifTrue, otherwise]);
  });

  test('the refused cells are exactly these: only a DELETE on its way can end', () => {
    const refused = PHASES.flatMap((phase) => EVENTS.filter((event) => SESSION_TRANSITIONS[phase][event] === undefined).map((event) => `${phase} × ${event}`));
    expect(refused).toEqual(['none × ended', 'held × ended', 'ended × ended']);
  });

  test("a handshake that fails after close() (a renewal's) leaves the closing as it was: close() ends the session it found", () => {
    const { state, end, closing } = sessionStep(inPhase('ending'), { type: 'handshake-failed' });
    expect({ held: state.sessionId, phase: state.phase, end, closing }).toEqual({ held: 'a', phase: 'ending', end: [], closing: undefined });
    expect(sessionStep(inPhase('ended'), { type: 'handshake-failed' }).state.phase).toBe('ended');
  });

  test('a state is plain data, never changed by a step', () => {
    const state = inPhase('held');
    const copy = structuredClone(state);
    for (const type of EVENTS) for (const event of BRANCHES[type]) if (SESSION_TRANSITIONS.held[type] !== undefined) sessionStep(state, event);
    expect(state).toEqual(copy);
  });
});

describe('which sessions are ended: every id that arrived, once, unless held', () => {
  const step = (state: SessionState, event: SessionEvent) => {
    const { state: next, end, closing } = sessionStep(state, event);
    return { held: next.sessionId, end, closing };
  };

  test.each([
    // [what, keeping, phase, event, held after, ended]
    ['none issued', 'client', 'held', { type: 'issued', sessionId: undefined, answered: true, seen: true }, 'a', []],
    ['the one held, again', 'client', 'held', { type: 'issued', sessionId: 'a', answered: true, seen: true }, 'a', []],
    ['a first one, answered: held', 'client', 'none', { type: 'issued', sessionId: 'b', answered: true, seen: true }, 'b', []],
    ['another, answered: it is held, the old one ended', 'client', 'held', { type: 'issued', sessionId: 'b', answered: true, seen: true }, 'b', ['a']],
    ['another, not answered (a client): it is ended', 'client', 'held', { type: 'issued', sessionId: 'b', answered: false, seen: true }, 'a', ['b']],
    ['a first one, not answered (a client): it is ended', 'client', 'none', { type: 'issued', sessionId: 'b', answered: false, seen: true }, undefined, ['b']],
    ['a first one, not answered (a transport): held, whatever became of the body', 'transport', 'none', { type: 'issued', sessionId: 'b', answered: false, seen: true }, 'b', []],
    ['one whose headers nobody saw (onMessage threw): ended, whoever keeps', 'transport', 'none', { type: 'issued', sessionId: 'b', answered: true, seen: false }, undefined, ['b']],
    ["another (the caller's): held, the one it replaces left to the caller", 'caller', 'held', { type: 'issued', sessionId: 'b', answered: true, seen: true }, 'b', []],
    ['issued after close(): ended', 'client', 'ending', { type: 'issued', sessionId: 'b', answered: true, seen: true }, 'a', ['b']],
    ['issued once closed: ended', 'transport', 'ended', { type: 'issued', sessionId: 'b', answered: true, seen: true }, undefined, ['b']],
    ['passed over: ended', 'client', 'held', { type: 'passed-over', sessionId: 'c', carried: 'a' }, 'a', ['c']],
    ['passed over, the one held: kept', 'client', 'held', { type: 'passed-over', sessionId: 'a', carried: 'a' }, 'a', []],
    ['passed over, the one the request carried (a caller\'s): kept', 'caller', 'none', { type: 'passed-over', sessionId: 'c', carried: 'c' }, undefined, []],
    ['a failed handshake: its session ended', 'client', 'held', { type: 'handshake-failed' }, undefined, ['a']],
    ['a 404 to a request that carried the session held: forgotten, not ended', 'client', 'held', { type: 'refused', status: 404, carried: 'a' }, undefined, []],
    ['a 404 to a request that carried another session: kept', 'client', 'held', { type: 'refused', status: 404, carried: 'z' }, 'a', []],
    ['a 404 to a request that carried none (2026-07-28): kept', 'client', 'held', { type: 'refused', status: 404, carried: undefined }, 'a', []],
    ['another refusal: kept', 'client', 'held', { type: 'refused', status: 400, carried: 'a' }, 'a', []],
    ['none held, a 404: none', 'client', 'none', { type: 'refused', status: 404, carried: undefined }, undefined, []],
    ['set by its owner: held as given, the old one not ended', 'transport', 'held', { type: 'set', sessionId: 'd' }, 'd', []],
  ] as const)('%s', (_, keeping, phase, event, held, ended) => {
    expect(step(inPhase(phase, keeping), event as SessionEvent)).toEqual({ held, end: ended, closing: undefined });
  });

  test("close(): the session held is close()'s own DELETE, and nothing else is ended; none held, it is ended for good", () => {
    expect(step(inPhase('held'), { type: 'close' })).toEqual({ held: 'a', end: [], closing: 'a' });
    expect(sessionStep(inPhase('held'), { type: 'close' }).state.phase).toBe('ending');
    expect(step(inPhase('none'), { type: 'close' })).toEqual({ held: undefined, end: [], closing: undefined });
    expect(sessionStep(inPhase('none'), { type: 'close' }).state.phase).toBe('ended');
    expect(sessionStep(inPhase('ending'), { type: 'ended' }).state).toMatchObject({ phase: 'ended', sessionId: undefined });
  });

  test('settled: the era and the version change, the session does not', () => {
    const next = sessionStep(inPhase('held'), { type: 'settled', era: 'legacy', protocolVersion: '2025-06-18' }).state;
    expect([next.era, next.protocolVersion, next.sessionId, next.phase]).toEqual(['legacy', '2025-06-18', 'a', 'held']);
  });
});

describe('refusedFor: a refusal after an initialize answered with no session a page could see', () => {
  const REFUSED: Failure = { code: 'http_status', message: said`the server answered HTTP 400 Bad Request`, detail: nothingRead(0) };
  const noneIssued = sessionStep(sessionStart('client', 'legacy', undefined), { type: 'issued', sessionId: undefined, answered: true, seen: true }).state;
  const LEGACY = { era: 'legacy', sessionId: undefined } as const;

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  test('outside a page, nothing is added', () => {
    expect(noneIssued.noneIssued).toBe(true);
    expect(refusedFor(noneIssued, REFUSED, 'http://127.0.0.1:4599/mcp', 400, LEGACY)).toBe(REFUSED);
  });

  test('in a page of another origin: a 400 or a 404 to a 2025 request with no session names the header to expose', () => {
    vi.stubGlobal('document', {});
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:5173' });
    const url = 'http://127.0.0.1:4599/mcp';
    for (const status of [400, 404]) {
      expect(written(refusedFor(noneIssued, REFUSED, url, status, LEGACY).message)).toBe(
        'the server answered HTTP 400 Bad Request; the initialize response carried no Mcp-Session-Id this page could see: if the server issues sessions, it must expose the header (Access-Control-Expose-Headers: Mcp-Session-Id)',
      );
    }
    // Another status, a request that carried a session, a 2026 request, an initialize that issued one: nothing to say.
    expect(refusedFor(noneIssued, REFUSED, url, 500, LEGACY)).toBe(REFUSED);
    expect(refusedFor(noneIssued, REFUSED, url, 400, { era: 'legacy', sessionId: 's' })).toBe(REFUSED);
    expect(refusedFor(noneIssued, REFUSED, url, 400, { era: 'modern', sessionId: undefined })).toBe(REFUSED);
    const issued = sessionStep(noneIssued, { type: 'issued', sessionId: 's', answered: true, seen: true }).state;
    expect(refusedFor(issued, REFUSED, url, 400, LEGACY)).toBe(REFUSED);
  });
});
