#!/usr/bin/env node
/** The `sse-answer` command: parses the command line, runs one command, and turns every failure into one line on stderr and its exit code — never a stack trace. @module */

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isAnswerError, quoteText } from '../index.js';
import { AlsoFailed } from './also-failed.js';
import { call } from './call.js';
import { clientSettings, EXCHANGE_OPTIONS, type OptionSpec } from './client-options.js';
import { events } from './events.js';
import { exitCodeOf, EXIT_FAILED, EXIT_USAGE } from './exit-codes.js';
import { helpText } from './help.js';
import { inputFailure } from './input-failed.js';
import { parseMaxBytes, parseOrigin, parseParams, parseProtocolVersion, parseRequestId, parseUrl } from './options.js';
import { printFailure, printJson } from './output.js';
import { probe } from './probe.js';
import { read } from './read.js';
import { UsageError } from './usage-error.js';

/** Runs the command in `argv` (without node and the script); resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    await run(argv);
    return 0;
  } catch (thrown) {
    // A failed command whose cleanup failed too is still one line: the failure, then the rest.
    const error = thrown instanceof AlsoFailed ? thrown.error : thrown;
    const also = thrown instanceof AlsoFailed ? `; ${thrown.also}` : '';
    if (error instanceof UsageError) {
      printFailure(`${error.message} (see sse-answer --help)${also}`);
      return EXIT_USAGE;
    }
    // An unreadable input is one failure, whichever reader carried it up.
    const input = inputFailure(error);
    if (input !== undefined) {
      printFailure(input.message);
      return EXIT_FAILED;
    }
    if (isAnswerError(error)) {
      // The server's JSON-RPC error that came with a bad status is still what it said.
      if (error.code === 'http_status' && error.detail.answer !== undefined) printJson(error.detail.answer);
      const exit = exitCodeOf(error.code);
      // A code with an exit of its own says its name; one that exits 1 is said in words alone.
      const code = exit === undefined ? '' : `${error.code}${error.reason === undefined ? '' : ` (${error.reason})`}: `;
      printFailure(`${code}${error.message}${also}`);
      return exit ?? EXIT_FAILED;
    }
    printFailure(`${error instanceof Error ? error.message : String(error)}${also}`);
    return EXIT_FAILED;
  }
}

async function run(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(helpText());
      return;
    case '--version':
      process.stdout.write(`${version()}\n`);
      return;
    case 'read': {
      const { values, positionals } = parse(rest, {
        'content-type': { type: 'string' },
        'request-id': { type: 'string' },
        'max-bytes': { type: 'string' },
      });
      if (positionals.length > 1) throw new UsageError('read takes one FILE (or - for stdin)');
      await read({
        file: positionals[0],
        contentType: values['content-type'] as string | undefined,
        requestId: parseRequestId(values['request-id'] as string | undefined),
        maxBytes: parseMaxBytes(values['max-bytes'] as string | undefined),
      });
      return;
    }
    case 'events': {
      const { values, positionals } = parse(rest, { 'max-bytes': { type: 'string' } });
      if (positionals.length > 1) throw new UsageError('events takes one FILE (or - for stdin)');
      await events(positionals[0], parseMaxBytes(values['max-bytes'] as string | undefined));
      return;
    }
    case 'call': {
      const { values, positionals } = parse(rest, {
        ...EXCHANGE_OPTIONS,
        'protocol-version': { type: 'string' },
        'no-initialize': { type: 'boolean' },
      });
      const [url, method, params, ...extra] = positionals;
      if (method === undefined) throw new UsageError('call needs a URL and a METHOD');
      if (extra.length > 0) throw new UsageError(`call takes URL METHOD [PARAMS_JSON], got an extra ${quoteText(extra[0]!)}`);
      await call({
        ...clientSettings(values, parseUrl(url, 'call needs a URL and a METHOD'), version()),
        method,
        params: parseParams(params),
        pinned: parseProtocolVersion(values['protocol-version'] as string | undefined),
        handshake: values['no-initialize'] !== true,
      });
      return;
    }
    case 'probe': {
      const { values, positionals } = parse(rest, { ...EXCHANGE_OPTIONS, origin: { type: 'string' } });
      if (positionals.length > 1) throw new UsageError(`probe takes one URL, got an extra ${quoteText(positionals[1]!)}`);
      const origin = parseOrigin(values['origin'] as string | undefined);
      await probe(clientSettings(values, parseUrl(positionals[0], 'probe needs a URL'), version()), origin);
      return;
    }
    case undefined:
      throw new UsageError('no command given: read, events, call or probe');
    default:
      throw new UsageError(`unknown command ${quoteText(command)}: read, events, call or probe`);
  }
}

/** The longest complaint of Node's parser the CLI repeats: it quotes the option the user typed. */
const MAX_PARSE_COMPLAINT = 160;

/** Node's own parser, strict; its complaints become usage errors, their first line, bounded. */
function parse(args: readonly string[], options: OptionSpec): { values: Record<string, unknown>; positionals: string[] } {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    const line = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    throw new UsageError(line.length > MAX_PARSE_COMPLAINT ? `${line.slice(0, MAX_PARSE_COMPLAINT)}…` : line);
  }
}

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

// stderr that cannot be written (a closed pipe, a full disk) has no one left to tell: the command goes on.
process.stderr.on('error', () => undefined);

// A reader that goes away (`| head`) is not a failure to report with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  printFailure(`cannot write the output: ${error.message}`);
  process.exit(EXIT_FAILED);
});

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
