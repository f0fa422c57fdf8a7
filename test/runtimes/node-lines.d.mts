/** A pinned Node line: its alias in node-lines/package.json, its major version and its exact version. */
export interface NodeLine {
  readonly name: string;
  readonly line: number;
  readonly version: string;
}

/** A pinned line as found here: its executable, or why it is skipped. */
export type FoundNodeLine = NodeLine & ({ readonly binary: string; readonly skipped?: undefined } | { readonly binary?: undefined; readonly skipped: string });

/** The pinned lines, oldest first. */
export const NODE_LINES: readonly NodeLine[];

/** The newest pinned line. */
export const NEWEST_LINE: NodeLine;

/** Each pinned line with its executable or why not, installing them first where needed. */
export function nodeLines(options?: { log?: (message: string) => void }): FoundNodeLine[];

/** Pinned line `line` (a major version) with its executable or why not. */
export function nodeLine(line: number, options?: { log?: (message: string) => void }): FoundNodeLine | { readonly skipped: string };
