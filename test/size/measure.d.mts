// Types for measure.mjs, which Node runs as it is (`npm run size`).

/** Minified and gzipped sizes in bytes. */
export interface Size {
  minified: number;
  gzipped: number;
}

/** Each measured import, as the statement a user's module would write. */
export const IMPORTS: Record<'scanner' | 'readAnswer' | 'root', string>;
/** The limits in bytes, minified and gzipped, by import name. */
export const LIMITS: Record<string, number>;
/** The minified and gzipped size in bytes of each import in {@link IMPORTS}. */
export function measure(): Promise<Record<keyof typeof IMPORTS, Size>>;
