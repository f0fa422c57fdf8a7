/** What a bearer token may hold: the one rule the exchange and `--bearer-token-env` check a token by. @module */

/** Visible ASCII, one character or more: no space, no control, nothing past `~`. */
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

/**
 * Whether `value` is a bearer token this package sends: a non-empty string of visible ASCII (`!` to
 * `~`), a superset of RFC 6750's `b64token` (the auth guide, "What a token may hold"). Anything else
 * is refused before anything is sent, and never quoted back.
 */
export function isBearerToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_CHARS.test(value);
}
