/** `sse-answer read`: a captured body → its answer on stdout, passed-over messages on stderr. @module */

import { DEFAULT_MAX_BYTES, readAnswerBody, type JsonRpcRequestId } from '../index.js';
import { openInput, sniffFormat } from './input.js';
import { printJson, printPassedOver } from './output.js';

/** What `read` is given. */
export interface ReadCommand {
  readonly file: string | undefined;
  readonly contentType: string | undefined;
  readonly requestId: JsonRpcRequestId | undefined;
  readonly maxBytes: number | undefined;
}

/** Reads the answer from the body, as `readAnswer` reads a response's. */
export async function read(command: ReadCommand): Promise<void> {
  const input = await openInput(command.file);
  const { contentType, body } = command.contentType === undefined
    ? await sniffFormat(input, command.maxBytes ?? DEFAULT_MAX_BYTES)
    : { contentType: command.contentType, body: input };
  const answer = await readAnswerBody(body, contentType, {
    requestId: command.requestId,
    maxBytes: command.maxBytes,
    onMessage: printPassedOver,
  });
  printJson(answer);
}
