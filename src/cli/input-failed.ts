/** An input that cannot be read — missing, a directory, no permission, a read error mid-way — whichever layer carried the error up: exit 1 and one line, `cannot read PATH: CODE`. @module */

import { isAnswerError } from '../index.js';

/** The input named `source` (a path, or `stdin`) could not be read. */
export class InputFailed extends Error {
  /** What could not be read and the system's reason (its `code`, e.g. `ENOENT`, else its message). */
  constructor(source: string, error: unknown) {
    const code = (error as { code?: unknown } | null)?.code;
    super(`cannot read ${source}: ${typeof code === 'string' ? code : error instanceof Error ? error.message : String(error)}`, { cause: error });
    this.name = 'InputFailed';
  }
}

/** The `InputFailed` behind `error`: itself, or the cause of the `AnswerError` a reader made of it (a failing body is `stream_failed`, but the body was a file). */
export function inputFailure(error: unknown): InputFailed | undefined {
  if (error instanceof InputFailed) return error;
  if (isAnswerError(error) && error.cause instanceof InputFailed) return error.cause;
  return undefined;
}
