/**
 * What a bearer token may hold, the one rule the exchange (`authProvider.token()`) and the command
 * line (`--bearer-token-env`) both check a token by before it goes into `Authorization`.
 * @module
 */

/** Visible ASCII, one character or more: no space, no control, nothing past `~`. */
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

/**
 * Whether `value` is a bearer token this package sends: a non-empty string of visible ASCII
 * (`!` to `~`), with no space or control character.
 *
 * RFC 6750 (section 2.1) allows a `b64token`: letters, digits and `-._~+/`, then any `=` padding.
 * This package takes the wider visible-ASCII set, a superset of that: tokens in the wild (JWTs,
 * opaque vendor tokens) are not always strict `b64token`s, and the server is the one to judge a
 * token. What it refuses is what no `Authorization` header can carry as one token — a space
 * would split it, a control character or a non-ASCII one would be refused by `fetch` or mangled
 * on the way — so that a bad token is refused before anything is sent, and never quoted back.
 */
export function isBearerToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_CHARS.test(value);
}
