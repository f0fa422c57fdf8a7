/** What `AnswerClient` keeps while fresh (SEP-2549's `ttlMs`), frozen and handed to every caller as it is; a change the server announces drops it (the client guide, "Cached lists"). @module */

import { objectOf, type JsonRpcMessage, type JsonValue } from '../vocabulary/json-rpc.js';

/** How long a result stays fresh: until `now + ttlMs`, or `undefined` when it carries no positive `ttlMs`. */
export function freshUntil(result: { readonly [key: string]: unknown }, now: number): number | undefined {
  const ttl = result['ttlMs'];
  return typeof ttl === 'number' && ttl > 0 && ttl < Infinity ? now + ttl : undefined;
}

/** What each announcement drops: the lists its method names (`notifications/resources/updated` drops a resource read). */
const CHANGED: { readonly [method: string]: readonly string[] } = {
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
};

/** Results kept until their time is up, by key: a list's method, or `resources/read` and a URI. */
export class ResultCache {
  readonly #kept = new Map<string, { readonly value: JsonValue; readonly until: number }>();
  /** How many changes were announced for each key: a read that saw another count began before one. */
  readonly #changes = new Map<string, number>();

  /**
   * The value kept under `key` while fresh (unless `fresh`), else what `read` reads, kept (frozen)
   * until the time it says — but not when its change was announced while it was read.
   */
  async through<T extends JsonValue>(key: string, fresh: boolean, read: () => Promise<{ readonly value: T; readonly until: number | undefined }>): Promise<T> {
    const kept = this.#kept.get(key);
    if (kept !== undefined && kept.until > Date.now()) {
      if (!fresh) return kept.value as T;
    } else {
      this.#kept.delete(key);
    }
    const changes = this.#changes.get(key);
    const { value, until } = await read();
    if (until === undefined || this.#changes.get(key) !== changes) return value;
    this.#kept.set(key, { value: frozen(value), until });
    return value;
  }

  notice(message: JsonRpcMessage): void {
    const { method } = message;
    if (typeof method !== 'string') return;
    for (const key of Object.hasOwn(CHANGED, method) ? CHANGED[method]! : []) this.#drop(key);
    const uri = objectOf(message['params'])?.['uri'];
    if (method === 'notifications/resources/updated' && typeof uri === 'string') this.#drop(resourceKey(uri));
  }

  #drop(key: string): void {
    this.#kept.delete(key);
    this.#changes.set(key, (this.#changes.get(key) ?? 0) + 1);
  }
}

/** The key of a resource read. */
export function resourceKey(uri: string): string {
  return `resources/read ${uri}`;
}

/** `value` and everything in it frozen: a JSON tree, walked without recursion. */
export function frozen<T extends JsonValue>(value: T): T {
  const stack: JsonValue[] = [value];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (typeof node !== 'object' || node === null || Object.isFrozen(node)) continue;
    Object.freeze(node);
    for (const child of Object.values(node)) stack.push(child);
  }
  return value;
}
