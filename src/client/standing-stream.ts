/** `subscriptions/listen` (2026-07-28) opens a standing stream, which the package never holds: refused here, before anything is sent. @module */

import { nothingRead, said, type Failure } from '../vocabulary/failure.js';

/** The method whose response is a standing stream. */
export const STANDING_STREAM_METHOD = 'subscriptions/listen';

/** The `unsupported_request` failure of `sender` (the API asked) for `subscriptions/listen`. */
export function standingStreamRefused(sender: string): Failure {
  return {
    code: 'unsupported_request',
    message: said`${sender} does not send ${STANDING_STREAM_METHOD}: its response is a standing stream, which this package does not hold`,
    detail: nothingRead(0),
  };
}
