/** The folder the installed version of `@sparticuz/chromium`'s Chromium is unpacked into: this checkout's `node_modules/.cache`. */
export function chromiumFolder(): string;

/** The path of the Chromium binary, unpacked into {@link chromiumFolder} first where it is not yet. */
export function chromiumPath(): Promise<string>;
