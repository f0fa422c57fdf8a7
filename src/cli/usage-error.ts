/** Bad usage: reported as one line and exit code 2, never with a stack trace. @module */

/** A command line the CLI cannot run; its message is the one line the user sees. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
