// A case whose figures are ratios of throughput between sides read in paired rounds
// (harness.mjs). Asked for some figures (the gate), it reads only the sides they need.
import { measure, ratio } from './harness.mjs';

/**
 * Builds a case: `sides()` gives [{ id, label, read, excluded? }], built before anything is
 * timed (`excluded` says why a side is not read at all). `figures` are [{ of, to, label }],
 * each the ratio of `of`'s throughput to `to`'s, with the id `<case>.<of>/<to>` (which is also
 * `to`'s time over `of`'s).
 */
export function pairedCase({ id, group, title, about, bytes, sides, figures }) {
  return {
    id,
    group,
    title,
    async run(settings) {
      const wanted = figures
        .map((f) => ({ ...f, id: `${id}.${f.of}/${f.to}` }))
        .filter((f) => settings.figures === undefined || settings.figures.includes(f.id));
      const needed = new Set(wanted.flatMap((f) => [f.of, f.to]));
      const all = sides().filter((s) => needed.has(s.id));
      const measured = await measure(
        all.filter((s) => !s.excluded),
        settings,
      );
      for (const s of all) if (s.excluded) measured[s.id] = { error: `not read: ${s.excluded}`, excluded: true };
      const sideRecords = Object.fromEntries(
        all.map((s) => [s.id, { label: s.label, ...measured[s.id], ...(measured[s.id].hz ? { bytesPerSecond: measured[s.id].hz * bytes } : {}) }]),
      );
      return {
        id,
        group,
        title,
        about,
        bytes,
        sides: sideRecords,
        figures: wanted.map((f) => ({ id: f.id, label: f.label, ...ratio(measured, f.of, f.to) })),
      };
    },
  };
}
