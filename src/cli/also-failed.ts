/** A failed command whose cleanup failed too: one failure line, the first failure's exit code, and what else failed at its end — never a second line. @module */

/** `error`, with `also` to be said at the end of its line. */
export class AlsoFailed extends Error {
  /** The failure the command is about: its exit code is the command's. */
  readonly error: unknown;
  /** What else failed, said after it. */
  readonly also: string;

  constructor(error: unknown, also: string) {
    super(also);
    this.name = 'AlsoFailed';
    this.error = error;
    this.also = also;
  }
}
