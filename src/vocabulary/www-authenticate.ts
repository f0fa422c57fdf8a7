/** The challenges of a `WWW-Authenticate` header (RFC 9110 §11.6.1), and the one an exchange reports: the `Bearer` one (RFC 6750; `DPoP`, RFC 9449, carries the same parameters). @module */

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

/** One part of a challenge list after optional whitespace: a parameter (its value a token or a quoted string), a bare word (a scheme, or a `token68`), or a comma. */
const PART = /[ \t]*(?:([!#$%&'*+.^_`|~\w-]+)[ \t]*=[ \t]*("(?:[^"\\]|\\.)*"|[!#$%&'*+.^_`|~\w-]+)|([!#$%&'*+.^_`|~\w/-]+=*)|(,))/y;

/** The challenge an exchange reports from `header`: the first `Bearer`, else `DPoP`, else any; a malformed part ends the parse, keeping those before it. */
export function authChallenge(header: string | null): AuthChallenge | undefined {
  const challenges = header === null ? [] : parseChallenges(header);
  const named = (scheme: string): AuthChallenge | undefined => challenges.find((one) => one.scheme.toLowerCase() === scheme);
  return named('bearer') ?? named('dpop') ?? challenges[0];
}

/** Every challenge in `header` up to the first part that does not parse: a word at the start or after a comma opens one; one right after a scheme is its token68. */
export function parseChallenges(header: string): AuthChallenge[] {
  const found: { scheme: string; params: Map<string, string> }[] = [];
  let afterComma = true;
  PART.lastIndex = 0;
  for (let part; (part = PART.exec(header)) !== null; ) {
    const [, name, value, word, comma] = part;
    const current = found[found.length - 1];
    if (comma !== undefined) {
      afterComma = true;
    } else if (word !== undefined) {
      if (afterComma) found.push({ scheme: word, params: new Map() });
      else if (current === undefined || current.params.size > 0) break;
      afterComma = false;
    } else if (name !== undefined && value !== undefined && current !== undefined) {
      const key = name.toLowerCase();
      if (!current.params.has(key)) current.params.set(key, value[0] === '"' ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value);
      afterComma = false;
    } else {
      break;
    }
  }
  return found.map(({ scheme, params }) => ({
    scheme,
    resourceMetadata: params.get('resource_metadata'),
    scope: params.get('scope'),
    error: params.get('error'),
    errorDescription: params.get('error_description'),
    params: Object.fromEntries(params),
  }));
}
