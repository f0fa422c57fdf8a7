/**
 * standing-stream.ts: the one request the package never sends — `subscriptions/listen`, whose
 * response is a standing stream — and its `unsupported_request` failure, naming the API asked.
 * That AnswerTransport and AnswerClient refuse it before anything is sent is in
 * answer-transport-requests.test.ts and answer-client-servers.test.ts.
 */

import { expect, test } from 'vitest';
import { STANDING_STREAM_METHOD, standingStreamRefused } from '../../src/client/standing-stream.js';
import { answerError, nothingRead, written } from '../../src/vocabulary/failure.js';

test('the method is 2026-07-28\'s subscriptions/listen', () => {
  expect(STANDING_STREAM_METHOD).toBe('subscriptions/listen');
});

test('the failure: unsupported_request, naming the sender, saying why and what to do instead; nothing read', () => {
  for (const sender of ['AnswerTransport', 'AnswerClient']) {
    const failure = standingStreamRefused(sender);
    expect(failure.code).toBe('unsupported_request');
    expect(failure.detail).toEqual(nothingRead(0));
    expect(written(failure.message)).toBe(
      `${sender} does not send subscriptions/listen: its response is a standing stream, which this package does not hold`,
    );
  }
});

test('as an AnswerError it has no cause and no reason', () => {
  const error = answerError(standingStreamRefused('AnswerClient'));
  expect([error.code, error.reason, 'cause' in error]).toEqual(['unsupported_request', undefined, false]);
});
