/** `call`'s progress where people look: on a terminal, each `notifications/progress` passed over is drawn as one bar on stderr, redrawn in place; anywhere else stderr keeps its NDJSON. @module */

import type { JsonRpcMessage } from '../index.js';
import { oneLine } from './output.js';

/** Where the bar goes: stderr, and what the command knows of it. */
export interface ProgressTerminal {
  readonly isTTY: boolean;
  /** Its width in characters, if known (`process.stderr.columns`); 80 if not (or 0, as a terminal of no size reports). */
  readonly columns: number | undefined;
  write(text: string): void;
}

/** What {@link progressPrinter} gives `call`. */
export interface ProgressPrinter {
  onMessage(message: JsonRpcMessage): void;
  /** Clears the bar, if one is drawn: called before anything else is written (the answer, a failure). */
  finish(): void;
}

/** Back to the start of the line, and the line cleared: how the bar is redrawn, and erased. */
const CLEAR_LINE = '\r\x1b[2K';
const CELLS = 20;
/** What a progress without a `total` shows, one frame a notification. */
const SPINNER = ['|', '/', '-', '\\'];

/**
 * The printer of the messages `call` passes over: off a terminal `passOver` itself (stderr stays the
 * NDJSON it was); on one, a numeric `notifications/progress` becomes the bar, drawn over the last,
 * and any other message clears it and goes to `passOver`. The bar's text is one escaped, redacted line.
 */
export function progressPrinter(terminal: ProgressTerminal, passOver: (message: JsonRpcMessage) => void): ProgressPrinter {
  if (!terminal.isTTY) return { onMessage: passOver, finish: () => undefined };
  let drawn: string | undefined;
  let frame = 0;
  const clear = (): void => {
    if (drawn !== undefined) terminal.write(CLEAR_LINE);
  };
  return {
    onMessage(message) {
      const progress = progressOf(message);
      if (progress === undefined) {
        clear();
        passOver(message);
        if (drawn !== undefined) terminal.write(drawn);
        return;
      }
      drawn = barLine(progress, SPINNER[frame++ % SPINNER.length]!, terminal.columns === undefined || terminal.columns <= 0 ? 80 : terminal.columns);
      terminal.write(`${CLEAR_LINE}${drawn}`);
    },
    finish() {
      clear();
      drawn = undefined;
    },
  };
}

interface Progress {
  readonly progress: number;
  readonly total: number | undefined;
  readonly message: string | undefined;
}

function progressOf(message: JsonRpcMessage): Progress | undefined {
  if (!('method' in message) || message.method !== 'notifications/progress') return undefined;
  const params = message.params;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const { progress, total, message: text } = params as Record<string, unknown>;
  if (typeof progress !== 'number' || !Number.isFinite(progress)) return undefined;
  return {
    progress,
    total: typeof total === 'number' && Number.isFinite(total) && total > 0 ? total : undefined,
    message: typeof text === 'string' && text !== '' ? text : undefined,
  };
}

/** The bar as one line that fits in `columns` (without a line end, which would scroll it). */
function barLine({ progress, total, message }: Progress, spin: string, columns: number): string {
  let head: string;
  if (total === undefined) head = `[${spin}] ${figure(progress)}`;
  else {
    const filled = Math.round(Math.min(1, Math.max(0, progress / total)) * CELLS);
    head = `[${'#'.repeat(filled)}${'-'.repeat(CELLS - filled)}] ${figure(progress)}/${figure(total)}`;
  }
  // Room for the space and the ellipsis, and one column kept free: a line as wide as the
  // terminal wraps on some, and \r would then redraw the wrong line.
  const room = columns - head.length - 3;
  return message === undefined || room < 2 ? head : `${head} ${oneLine(message, room)}`;
}

/** A number as the bar shows it: whole numbers as they are, others to two decimals. */
function figure(n: number): string {
  return String(Math.round(n * 100) / 100);
}
