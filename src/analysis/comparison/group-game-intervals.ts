// Each group's test-inversion interval of R per game, for the comparison's difference of R.
//
// R̂ is a maximum over pairs of framings, biased down by how many framings share an extreme; a group whose
// framings crowd both extremes (6 at .2 and 5 at .8) sits about 0.06 below its R at any n, one whose
// framings are spread hardly at all. The bootstrap of a difference cannot estimate that bias (its
// replicates spread tied framings apart), while the robustness analysis's test-inversion interval
// accounts for it. So the comparison also combines the two groups' inversion intervals (MOVER,
// pair-differences.ts); this module places them from the group's own cells and sessions.
import type { FramingSessions } from "../robustness/framing-sessions.js";
import type { GameInterval } from "../robustness/mean-interval.js";
import { type MultiActionFraming, MultiActionInversion } from "../robustness/multi-action-inversion.js";
import { type InversionFraming, RobustnessInversion } from "../robustness/robustness-inversion.js";
import { percentileInterval } from "../sampling/percentile.js";
import type { GameReplicates } from "./group-replicates.js";
import type { GroupSample } from "./group-samples.js";

/**
 * The interval of R of one game of a group, its cells given in framing order. The upper end is the one
 * the inversion places when invariance is rejected (the comparison runs no permutation test; an end of 1
 * would only widen it). Where an end cannot be placed (R̂ = 1 from tied counts) the group's bootstrap
 * percentile end of that game stands in.
 */
export function gameInterval(
  sample: GroupSample,
  cells: readonly number[],
  replicates: GameReplicates,
  confidence: number,
): GameInterval {
  const k = (sample.cells[cells[0] as number] as GroupSample["cells"][number]).counts.length;
  const sessions = sessionsOf(sample, cells);
  const inversion =
    k === 2
      ? new RobustnessInversion(twoActionFramings(sample, cells, sessions), confidence)
      : new MultiActionInversion(multiActionFramings(sample, cells, sessions), confidence);
  const [bootLower, bootUpper] = percentileInterval(Float64Array.from(replicates.RStar), confidence);
  const estimate = replicates.R;
  const lower = inversion.lowerEnd(Math.min(bootLower, estimate));
  const upper = inversion.upperEnd(true, Math.max(bootUpper, estimate));
  return {
    estimate,
    ci: [
      Number.isFinite(lower) ? Math.min(lower, estimate) : Math.min(bootLower, estimate),
      Number.isFinite(upper) ? Math.max(upper, estimate) : Math.max(bootUpper, estimate),
    ],
  };
}

/** Per cell (in `cells` order), each unit's counts there: sessions as the inversion reads them. */
function sessionsOf(sample: GroupSample, cells: readonly number[]): Map<number, Int32Array>[] | null {
  const position = new Map(cells.map((c, i) => [c, i]));
  const k = (sample.cells[cells[0] as number] as GroupSample["cells"][number]).counts.length;
  const perCell = cells.map(() => new Map<number, Int32Array>());
  let any = false;
  let unitNumber = 0;
  for (const stratum of sample.strata) {
    if (stratum.kind !== "units") continue;
    for (const unit of stratum.units) {
      const id = unitNumber++;
      for (const entry of unit) {
        const at = position.get(entry.cell);
        if (at === undefined) continue;
        const map = perCell[at] as Map<number, Int32Array>;
        let counts = map.get(id);
        if (counts === undefined) {
          counts = new Int32Array(k);
          map.set(id, counts);
        }
        counts[entry.action] = (counts[entry.action] as number) + entry.count;
        any = true;
      }
    }
  }
  return any ? perCell : null;
}

function twoActionFramings(
  sample: GroupSample,
  cells: readonly number[],
  sessions: Map<number, Int32Array>[] | null,
): InversionFraming[] {
  return cells.map((c, i) => {
    const cell = sample.cells[c] as GroupSample["cells"][number];
    const x = cell.counts[0] as number;
    const units = sessions?.[i];
    if (units === undefined || units.size === 0) return { x, n: cell.n };
    const listed: FramingSessions = {
      x: Float64Array.from(units.values(), (u) => u[0] as number),
      n: Float64Array.from(units.values(), (u) => (u[0] as number) + (u[1] as number)),
      weight: new Float64Array(units.size).fill(1),
      id: Int32Array.from(units.keys()),
    };
    return { x, n: cell.n, sessions: listed };
  });
}

function multiActionFramings(
  sample: GroupSample,
  cells: readonly number[],
  sessions: Map<number, Int32Array>[] | null,
): MultiActionFraming[] {
  return cells.map((c, i) => {
    const cell = sample.cells[c] as GroupSample["cells"][number];
    const units = sessions?.[i];
    const counts = Array.from(cell.counts);
    if (units === undefined || units.size === 0) return { counts };
    return { counts, sessions: [...units.values()].map((u) => ({ counts: Array.from(u), weight: 1 })) };
  });
}
