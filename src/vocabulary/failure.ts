/** A failure as a value, until the one place at a public edge where it becomes an `AnswerError` ({@link answerError}); its message keeps the server's text apart, quoted once (redacted, then cut). @module */

import { detailField, shortText, quoteText, descriptionOf } from './describe-value.js';
import { AnswerError, type AnswerDetail, type AnswerErrorCode, type MalformedReason } from './errors.js';
import { mapStrings } from './json-tree.js';
import type { Secrets } from './secrets.js';

/** Text the package did not write in a failure's message (the server's, or what the caller's code threw): written bounded and escaped, its secrets redacted first. */
export interface ForeignText {
  /** The text, as received. */
  readonly text: string;
  /** Quoted (`"…"`) or, for a reason phrase or a code, shown bare. */
  readonly quoted: boolean;
}

/** One part of a failure's message: the package's own words, or the server's text. */
export type MessagePart = string | ForeignText;

/** Server text for a message, quoted when written. */
export function quotedPart(text: string): ForeignText {
  return { text, quoted: true };
}

/** Server text for a message, shown bare (escaped and bounded, unquoted): a reason phrase, a code. */
export function barePart(text: string): ForeignText {
  return { text, quoted: false };
}

/** Items as a message lists them: the first `max`, between `separator`s, and how many more, so that any list stays a line. */
export function listedParts(items: readonly MessagePart[], separator: string, max: number): readonly MessagePart[] {
  const shown = items.slice(0, max).flatMap((item, i) => (i === 0 ? [item] : [separator, item]));
  return items.length > max ? [...shown, `${separator}and ${items.length - max} more`] : shown;
}

/** Items of the server's text as a message lists them: each bare, as {@link listedParts} lists them. */
export function barePartList(items: readonly string[], separator: string, max: number): readonly MessagePart[] {
  return listedParts(items.map(barePart), separator, max);
}

/** A value the caller's code gave or threw (an abort reason, a `fetch`'s error), described for a message: redacted before it is cut, as the server's text is. */
export function valuePart(value: unknown): ForeignText {
  return { text: descriptionOf(value), quoted: typeof value === 'string' };
}

/** A message from a template: `said\`the server answered ${quotedPart(text)}\``. */
export function said(strings: TemplateStringsArray, ...values: readonly (string | number | ForeignText | readonly MessagePart[])[]): readonly MessagePart[] {
  const parts: MessagePart[] = [strings[0]!];
  values.forEach((value, i) => {
    if (Array.isArray(value)) parts.push(...(value as readonly MessagePart[]));
    else parts.push(typeof value === 'number' ? String(value) : (value as string | ForeignText));
    parts.push(strings[i + 1]!);
  });
  return parts;
}

/** Why a read or an exchange has no answer, before it is an `AnswerError`. */
export interface Failure {
  readonly code: AnswerErrorCode;
  readonly message: readonly MessagePart[];
  readonly detail: AnswerDetail;
  /** For `malformed_answer`. */
  readonly reason?: MalformedReason | undefined;
  /** The underlying error, when there is one (`hasCause` tells an `undefined` cause from none). */
  readonly cause?: unknown;
  readonly hasCause?: boolean | undefined;
  /** The failure this one restates, which becomes its cause when both become errors, at the edge. */
  readonly restates?: Failure | undefined;
}

/** What a read has counted before its first byte: where every count of a body starts. */
export const NOTHING_READ: Readonly<Pick<AnswerDetail, 'bytesRead' | 'events' | 'messages' | 'ignored' | 'lastEventId' | 'retry'>> = /* @__PURE__ */ Object.freeze({
  bytesRead: 0,
  events: 0,
  messages: 0,
  ignored: 0,
  lastEventId: '',
  retry: undefined,
});

/** The detail of a failure before any body was read. */
export function nothingRead(maxBytes: number, contentType: string | null = null): AnswerDetail {
  return { contentType, maxBytes, ...NOTHING_READ };
}

/** `failure` said again by a layer that knows more: of the same code it keeps its cause; of another, it becomes the cause. */
export function restated(failure: Failure, changes: Pick<Failure, 'message' | 'detail'> & Partial<Pick<Failure, 'code' | 'reason'>>): Failure {
  const { code = failure.code, message, detail } = changes;
  return code === failure.code ? { ...failure, ...changes } : { code, message, detail, reason: changes.reason, restates: failure };
}

/** A failure with `cause` as its cause. */
export function withCause(failure: Omit<Failure, 'cause' | 'hasCause'>, cause: unknown): Failure {
  return { ...failure, cause, hasCause: true };
}

/** The `AnswerError` for `failure`: its message written with the server's text quoted, its detail redacted, then its server's text bounded ({@link heldDetail}). */
export function answerError(failure: Failure, secrets?: Secrets): AnswerError {
  const { restates, cause } = failure;
  const text = written(failure.message, secrets);
  const detail = heldDetail(secrets === undefined ? failure.detail : secrets.redactValue(failure.detail));
  return new AnswerError(failure.code, text, detail, {
    reason: failure.reason,
    ...(restates ? { cause: answerError(restates, secrets) } : failure.hasCause ? { cause: secrets ? secrets.redactCause(cause) : cause } : {}),
  });
}

/** `detail` as an error holds it: each string of the server's text as {@link detailField} gives it; `answer` stays the server's JSON (redacted), to quote before it is shown. */
function heldDetail(detail: AnswerDetail): AnswerDetail {
  const { answer, ...fields } = detail;
  const held = mapStrings(fields, detailField) as AnswerDetail;
  return answer === undefined ? held : { ...held, answer };
}

/** A message written out: the package's words as they are, the text apart quoted, its secrets redacted first. */
export function written(parts: readonly MessagePart[], secrets?: Secrets): string {
  return parts.map((part) => (typeof part === 'string' ? part : quoted(part, secrets))).join('');
}

function quoted(part: ForeignText, secrets: Secrets | undefined): string {
  // Redacted whole, then cut: a secret across the cut is gone before the cut is made.
  const text = secrets === undefined ? part.text : secrets.redact(part.text);
  return part.quoted ? quoteText(text) : shortText(text);
}

/** The failure of a stop by a signal: `timeout` for a `TimeoutError` reason (as `AbortSignal.timeout` gives), else `aborted`; `doing` names what stopped. */
export function stopped(reason: unknown, detail: AnswerDetail, doing: string): Failure {
  const timedOut = isTimeout(reason);
  // The reason is the caller's own (or the package's): described apart, and redacted, as text the package did not write.
  const message = timedOut ? said`${doing} timed out` : said`${doing} was aborted: ${valuePart(reason)}`;
  return withCause({ code: timedOut ? 'timeout' : 'aborted', message, detail }, reason);
}

/** How a signal stopped `failure`, if one did (it came from {@link stopped}): by its deadline, or aborted. */
export function stopKind(failure: Failure): 'timeout' | 'aborted' | undefined {
  return failure.code === 'timeout' || failure.code === 'aborted' ? failure.code : undefined;
}

function isTimeout(reason: unknown): boolean {
  try {
    return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
  } catch {
    return false; // a reason whose name getter throws is no deadline
  }
}
