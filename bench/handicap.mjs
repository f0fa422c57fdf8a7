// The gate's handicap switch (`bench/run.mjs --check --handicap F`): the scanner made slower by
// the fraction F, to measure how well the gate catches a slower scanner. It lives in the bench
// only, never in src/. The extra work is the scanner's own: of every 1/F calls of `scanEach`, one
// is made twice (the state it returns the second time is dropped), and which one turns with each
// read, so that over any 1/F reads every chunk is scanned twice once. Every runtime then does F
// more of exactly the scanner's work, with no timing to calibrate: workerd's clock moves by whole
// milliseconds and Chromium's by 100 µs, too coarse to size a busy loop by. A chunk scanned again
// at once is in the cache, so the read slows by a little less than F.

/**
 * `build`'s functions as `scannerEachOf` (portable-readers.mjs) takes them, with `scanEach`
 * doing the work of `1 + fraction` calls; `fraction` is 1/n for a whole n.
 */
export function handicapped(build, fraction) {
  const every = Math.round(1 / fraction);
  if (Math.abs(every * fraction - 1) > 1e-9) throw new Error(`a handicap is 1/n for a whole n, not ${fraction}`);
  let read = 0;
  let call = 0;
  return {
    scanStart() {
      read++;
      call = 0;
      return build.scanStart();
    },
    scanEach(state, chunk, onEvent) {
      if ((call++ + read) % every === 0) build.scanEach(state, chunk, onEvent);
      return build.scanEach(state, chunk, onEvent);
    },
    scanEndEach: build.scanEndEach,
  };
}
