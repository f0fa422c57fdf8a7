/**
 * A finding's input as JSON and back: plain data plus the values JSON cannot hold (bytes, in
 * base64; `undefined`, -0, non-finite numbers), tagged. A stored finding then replays from its input
 * alone, whatever the generators become.
 */

/** A JSON value; a tagged value is an object with one `$`-prefixed key. */
type Stored = null | boolean | number | string | Stored[] | { [key: string]: Stored };

/** `value` as JSON text. Throws for anything but plain data, bytes, and the tagged numbers. */
export function storeInput(value: unknown): string {
  return JSON.stringify(toStored(value), null, 1);
}

/** The input a {@link storeInput} text holds. */
export function loadInput(text: string): unknown {
  return fromStored(JSON.parse(text) as Stored);
}

function toStored(value: unknown): Stored {
  if (value === undefined) return { $undefined: true };
  if (typeof value === 'number') {
    if (Object.is(value, -0)) return { $number: '-0' };
    if (!Number.isFinite(value)) return { $number: String(value) };
    return value;
  }
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (value instanceof Uint8Array) return { $base64: Buffer.from(value.buffer, value.byteOffset, value.length).toString('base64') };
  if (Array.isArray(value)) return value.map(toStored);
  // fast-check's records may have a null prototype; they come back as plain objects.
  if (typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    // Own keys written as entries, so that `__proto__` and any key order survive.
    return { $object: Object.keys(value).map((key) => [key, toStored((value as Record<string, unknown>)[key])]) };
  }
  throw new TypeError(`a fuzz input holds a value that cannot be stored: ${Object.prototype.toString.call(value)}`);
}

function fromStored(stored: Stored): unknown {
  if (stored === null || typeof stored !== 'object') return stored;
  if (Array.isArray(stored)) return stored.map(fromStored);
  if ('$undefined' in stored) return undefined;
  if ('$number' in stored) return Number(stored['$number']);
  if ('$base64' in stored) return new Uint8Array(Buffer.from(stored['$base64'] as string, 'base64'));
  if ('$object' in stored) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of stored['$object'] as [string, Stored][]) {
      Object.defineProperty(out, key, { value: fromStored(item), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  throw new TypeError(`not a stored fuzz input: ${JSON.stringify(stored).slice(0, 80)}`);
}
