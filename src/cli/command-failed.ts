/**
 * A failure that is neither bad usage nor an `AnswerError` — an `initialize` the server did not
 * accept, a version the client cannot speak: exit 1, one line.
 * @module
 */

/** A command that could not do what it was asked; its message is the one line the user sees. */
export class CommandFailed extends Error {
  /** A failure saying `message`. */
  constructor(message: string) {
    super(message);
    this.name = 'CommandFailed';
  }
}
