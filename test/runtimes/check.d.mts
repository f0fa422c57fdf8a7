// Types for check.mjs, which every runtime loads as it is.

/** The first difference between `actual` and `expected`, or `undefined` when they are equal. */
export function difference(actual: unknown, expected: unknown, path?: string): string | undefined;
/** Throws when `actual` differs from `expected`; `what` names the check. */
export function same(actual: unknown, expected: unknown, what: string): void;
/** Throws when `condition` is not true; `what` says what should have held. */
export function ok(condition: unknown, what: string): void;
/** A short, readable rendering of a value for a failure message. */
export function show(value: unknown): string;
