/**
 * What the async fuzz targets watch in the process around a case: rejections nobody handled, and
 * `MaxListenersExceededWarning` (a listener left on a signal). The listeners are installed once,
 * at the first mark, and shared by every target.
 */

const unhandled: unknown[] = [];
const leakWarnings: Error[] = [];
let watching = false;

/** Where the process's records stood when a case began. */
export interface ProcessMark {
  readonly unhandled: number;
  readonly warnings: number;
}

/** Marks the start of a case (installing the listeners the first time). */
export function markProcess(): ProcessMark {
  if (!watching) {
    watching = true;
    process.on('unhandledRejection', (reason) => unhandled.push(reason));
    process.on('warning', (warning) => {
      if (warning.name === 'MaxListenersExceededWarning') leakWarnings.push(warning);
    });
  }
  return { unhandled: unhandled.length, warnings: leakWarnings.length };
}

/** The unhandled rejections and leak warnings since `mark`, oldest first. */
export function sinceMark(mark: ProcessMark): { readonly rejections: readonly unknown[]; readonly warnings: readonly Error[] } {
  return { rejections: unhandled.slice(mark.unhandled), warnings: leakWarnings.slice(mark.warnings) };
}
