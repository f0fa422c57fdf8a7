/**
 * The authentication challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1): the schemes a
 * server offers, each with its `token68` or its `name=value` parameters (a value a token or a
 * quoted string), the challenges separated by commas, as repeated headers are once joined. An
 * exchange reads the `Bearer` one (RFC 6750; `DPoP`, RFC 9449, carries the same parameters) so a
 * caller can start its own flow from `resource_metadata` (RFC 9728), `scope` and `error`.
 * @module
 */

/** One challenge of a `WWW-Authenticate` header, as the server sent it. */
export interface AuthChallenge {
  /** The auth scheme, as sent (`Bearer`, `DPoP`, …); compare it case-insensitively. */
  readonly scheme: string;
  /** `resource_metadata`: the URL of the server's protected resource metadata (RFC 9728), if given. */
  readonly resourceMetadata?: string | undefined;
  /** `scope`: the scopes the server says the request needs (space-separated), if given. */
  readonly scope?: string | undefined;
  /** `error`: why the token was refused (`invalid_token`, `insufficient_scope`, …), if given. */
  readonly error?: string | undefined;
  /** `error_description`, if given: text from the server, not to be trusted or shown as is. */
  readonly errorDescription?: string | undefined;
  /** Every parameter by its lowercased name (the first of a repeated one), values unquoted. */
  readonly params: Readonly<Record<string, string>>;
}

/** RFC 9110 `tchar`: the characters of a token (a scheme, a parameter name, an unquoted value). */
const TOKEN = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y;
/** RFC 9110 `token68`, with the `=` padding it may end with. */
const TOKEN68 = /[A-Za-z0-9._~+/-]+=*/y;
/** Optional whitespace (spaces and tabs). */
const OWS = /[ \t]*/y;

/**
 * The challenge an exchange reports from `header`: the first `Bearer` one, else the first `DPoP`
 * one, else the first of any scheme; `undefined` for no header or none that parses. A malformed
 * part ends the parse, keeping the challenges before it.
 */
export function authChallenge(header: string | null): AuthChallenge | undefined {
  if (header === null) return undefined;
  const challenges = parseChallenges(header);
  const named = (scheme: string): AuthChallenge | undefined => challenges.find((one) => one.scheme.toLowerCase() === scheme);
  return named('bearer') ?? named('dpop') ?? challenges[0];
}

/** Every challenge in `header`, in order, up to the first part that does not parse. */
export function parseChallenges(header: string): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  let at = 0;
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    const found = pattern.exec(header)?.[0];
    if (found !== undefined) at += found.length;
    return found;
  };
  const skipSeparators = (): void => {
    while (at < header.length && (header[at] === ',' || header[at] === ' ' || header[at] === '\t')) at += 1;
  };
  /**
   * Whether a `name = value` starts at `at`: a parameter, not the scheme of the next challenge,
   * nor a token68 (whose `=` padding is followed by more `=`, a comma or the end).
   */
  const paramAhead = (): boolean => {
    const start = at;
    const name = match(TOKEN);
    match(OWS);
    let ahead = name !== undefined && header[at] === '=';
    if (ahead) {
      at += 1;
      match(OWS);
      ahead = at < header.length && header[at] !== '=' && header[at] !== ',';
    }
    at = start;
    return ahead;
  };

  for (;;) {
    skipSeparators();
    if (at >= header.length) return challenges;
    const scheme = match(TOKEN);
    if (scheme === undefined) return challenges;
    const params = new Map<string, string>();
    const spaced = match(OWS) !== '';
    if (spaced && !paramAhead()) {
      // A token68 (`Basic dXNlcg==`) stands alone: it is followed by the end or a comma.
      const start = at;
      const token68 = match(TOKEN68);
      match(OWS);
      if (token68 === undefined || (at < header.length && header[at] !== ',')) at = start;
    } else if (spaced) {
      for (;;) {
        const name = match(TOKEN);
        match(OWS);
        if (name === undefined || header[at] !== '=') return [...challenges, challengeOf(scheme, params)];
        at += 1;
        match(OWS);
        const value = header[at] === '"' ? quotedString() : match(TOKEN);
        if (value === undefined) return [...challenges, challengeOf(scheme, params)];
        const key = name.toLowerCase();
        if (!params.has(key)) params.set(key, value);
        match(OWS);
        if (header[at] !== ',') break;
        // After a comma: another parameter of this challenge, or the next challenge.
        const comma = at;
        skipSeparators();
        if (at >= header.length || !paramAhead()) {
          at = comma;
          break;
        }
      }
    }
    challenges.push(challengeOf(scheme, params));
    match(OWS);
    if (at < header.length && header[at] !== ',') return challenges;
  }

  /** A quoted string at `at`, unescaped (`\x` is `x`); `undefined` when it does not close. */
  function quotedString(): string | undefined {
    let value = '';
    for (let i = at + 1; i < header.length; i += 1) {
      const char = header[i];
      if (char === '"') {
        at = i + 1;
        return value;
      }
      if (char === '\\') i += 1;
      if (i < header.length) value += header[i];
    }
    return undefined;
  }
}

function challengeOf(scheme: string, params: Map<string, string>): AuthChallenge {
  return {
    scheme,
    resourceMetadata: params.get('resource_metadata'),
    scope: params.get('scope'),
    error: params.get('error'),
    errorDescription: params.get('error_description'),
    params: Object.fromEntries(params),
  };
}
