/** The folder this user's copy of `@sparticuz/chromium`'s Chromium, of the installed version, is unpacked into. */
export function chromiumFolder(): string;

/** The path of the Chromium binary, unpacked into {@link chromiumFolder} first where it is not yet. */
export function chromiumPath(): Promise<string>;
