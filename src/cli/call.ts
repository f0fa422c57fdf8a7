/** `sse-answer call`: one request through an `AnswerClient` in the era it negotiates (or the one pinned): the era line, the request, the answer on stdout, and a 2025 session ended. @module */

import { AnswerClient, type JsonObject, type JsonRpcResponse, type JsonValue, type NegotiatedBy } from '../index.js';
import type { ClientSettings } from './client-options.js';
import { AlsoFailed } from './also-failed.js';
import { printFailure, printJson, printNote, printPassedOver } from './output.js';
import { progressPrinter } from './progress-bar.js';
import { UsageError } from './usage-error.js';

/** What `call` is given. */
export interface CallCommand extends ClientSettings {
  readonly method: string;
  readonly params: JsonObject | JsonValue[] | undefined;
  /** `--protocol-version`: the one version to speak. */
  readonly pinned: string | undefined;
  /** `false` for `--no-initialize`: no `server/discover`, no `initialize`. */
  readonly handshake: boolean;
}

/** Runs the call. A failure is one line, a failed DELETE after it joining that line; a failed DELETE after the answer is a line of its own, the exit code the answer's. */
export async function call(command: CallCommand): Promise<void> {
  const { pinned, handshake } = command;
  const client = await AnswerClient.connect(command.url, {
    ...command.options,
    versionNegotiation: pinned === undefined ? 'auto' : { pin: pinned },
    handshake,
  });
  let failure: unknown;
  try {
    // Before the era line: array params, which have no place for _meta, are bad usage alone.
    if (client.era === 'modern' && Array.isArray(command.params)) {
      throw new UsageError('PARAMS_JSON must be a JSON object in the 2026-07-28 era: the request carries its _meta there');
    }
    printNote(eraLine(client, pinned !== undefined, handshake));
    const spoken = client.protocolVersion;
    const progress = progressPrinter({ isTTY: process.stderr.isTTY === true, columns: process.stderr.columns, write: (text) => process.stderr.write(text) }, printPassedOver);
    let answer: JsonRpcResponse;
    try {
      answer = await client.request(command.method, command.params, { onMessage: progress.onMessage });
    } finally {
      progress.finish(); // the bar gone before the answer or the failure is written
    }
    // The server refused the version and listed one the client speaks: the request went again in it.
    if (client.protocolVersion !== spoken) printNote(`era ${client.era} (${client.protocolVersion ?? 'no protocol version'}): the server refused ${spoken ?? 'the version'} and listed this one, so the request was sent again in it`);
    printJson(answer);
  } catch (error) {
    failure = error;
  }
  const ending = await client.close().then(
    () => undefined,
    (error: unknown) => error,
  );
  if (failure !== undefined) throw ending === undefined ? failure : new AlsoFailed(failure, `ending the session failed too: ${messageOf(ending)}`);
  if (ending !== undefined) printFailure(`ending the session failed: ${messageOf(ending)}`);
}

function eraLine(client: AnswerClient, pinned: boolean, handshake: boolean): string {
  return `era ${client.era} (${client.protocolVersion ?? 'no protocol version'}): ${how(client.negotiatedBy, pinned, handshake)}`;
}

function how(by: NegotiatedBy, pinned: boolean, handshake: boolean): string {
  if (!handshake) return pinned ? 'pinned by --protocol-version, no handshake (--no-initialize)' : 'no handshake (--no-initialize)';
  switch (by.by) {
    case 'discover':
      return 'negotiated by server/discover';
    case 'initialize':
      return by.refusal === undefined ? 'negotiated by initialize' : `server/discover refused (${by.refusal}), negotiated by initialize`;
    case 'pin':
      return by.initialize ? 'pinned by --protocol-version, initialize' : 'pinned by --protocol-version';
    case 'none':
      return 'no handshake (--no-initialize)';
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
