/**
 * The secrets an exchange sent — the `authProvider`'s tokens, the caller's `Authorization` and
 * the headers it marks secret — which nothing the exchange says may repeat: a hostile server can
 * reflect a token into an error message, a `Location` or a `WWW-Authenticate`, and an error is
 * logged and printed where the token must never appear.
 * @module
 */

/** What a secret is replaced by wherever it appears in text an error quotes or carries. */
export const REDACTED = '[redacted]';

/**
 * The shortest value taken for a secret. A shorter one cannot be told from ordinary text, and
 * redacting it would erase words of every message (a token `a` from `invalid_token`); a real
 * token or key is far longer.
 */
export const MIN_SECRET_LENGTH = 8;

/** The headers whose values are always secret, whatever the caller marks. */
export const SECRET_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie'];

/**
 * A set of secrets that only grows. Each is redacted as sent and in the two forms a server most
 * plausibly reflects it in: percent-encoded (a `Location` query) and JSON-escaped (a body).
 */
export class Secrets {
  /** Every form to redact, longest first once sorted (so a secret inside another goes with it). */
  #forms: string[] = [];
  #sorted = true;

  /** Adds a secret value (one shorter than {@link MIN_SECRET_LENGTH} is none). */
  add(value: string): void {
    if (value.length < MIN_SECRET_LENGTH) return;
    for (const form of [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]) {
      if (!this.#forms.includes(form)) {
        this.#forms.push(form);
        this.#sorted = false;
      }
    }
  }

  /**
   * Adds a header value as sent: the whole value and, for a credential of the form
   * `Scheme credentials` (`Bearer …`, `Basic …`), the credentials alone.
   */
  addHeaderValue(value: string): void {
    this.add(value);
    const space = value.indexOf(' ');
    if (space > 0) this.add(value.slice(space + 1).trim());
  }

  /** Adds the values of `headers` whose names are secret: {@link SECRET_HEADERS} and `named`. */
  addHeaders(headers: Headers, named: readonly string[] = []): void {
    headers.forEach((value, name) => {
      if (SECRET_HEADERS.includes(name) || named.includes(name)) this.addHeaderValue(value);
    });
  }

  /** Whether there is any secret to redact. */
  get empty(): boolean {
    return this.#forms.length === 0;
  }

  /** `text` with every secret replaced by {@link REDACTED}. */
  redact(text: string): string {
    if (this.#forms.length === 0) return text;
    if (!this.#sorted) {
      this.#forms.sort((a, b) => b.length - a.length);
      this.#sorted = true;
    }
    let out = text;
    for (const form of this.#forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  }

  /**
   * `value` with every secret redacted from its strings (not its keys: a detail's are the
   * package's own names), as a copy where anything changed (the rest shared): for the JSON data
   * an error carries. No recursion, so no depth of nesting can overflow the stack.
   */
  redactValue<T>(value: T): T {
    if (this.#forms.length === 0) return value;
    return redactTree(value, (text) => this.redact(text));
  }
}

/** A copy of the JSON tree `value` (no cycles: it came from `JSON.parse` or this package) with `redact` applied to every string, built bottom-up with an explicit stack. */
function redactTree<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  // Post-order over the tree: each container is rebuilt once its children are.
  const done = new Map<object, unknown>();
  const stack: { node: object; expanded: boolean }[] = [{ node: value, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const entries = Object.entries(top.node) as [string, unknown][];
    if (!top.expanded) {
      top.expanded = true;
      for (const [, child] of entries) {
        if (typeof child === 'object' && child !== null && !done.has(child)) stack.push({ node: child, expanded: false });
      }
      continue;
    }
    stack.pop();
    let changed = false;
    const rebuilt = entries.map(([key, child]): [string, unknown] => {
      const newChild = typeof child === 'string' ? redact(child) : typeof child === 'object' && child !== null ? done.get(child) : child;
      if (newChild !== child) changed = true;
      return [key, newChild];
    });
    done.set(top.node, !changed ? top.node : Array.isArray(top.node) ? rebuilt.map(([, child]) => child) : Object.fromEntries(rebuilt));
  }
  return done.get(value) as T;
}
