// A framing's sessions as the test inversion reads them (robustness-inversion.ts, shared-session-factor.ts):
// parallel arrays, not an object per session, built from a game's planned cells.
import type { ActionId } from "../../domain/types.js";
import type { InversionFraming } from "./robustness-inversion.js";
import type { PlannedCell } from "./robustness-plan.js";

/**
 * A framing's sessions as parallel arrays, entry i one listed session: `x[i]` of its `n[i]` decisions
 * chose the first action, and it stands for `weight[i]` sessions. `id[i]` numbers the session from 0 (the
 * same number in every framing it decided in), absent when the sessions carry no ids. Arrays rather than
 * an object per session: a million-decision record lists some 300k sessions in its games' framings, and
 * objects that live through a whole inversion outlast the young generation and pile up as old garbage
 * while the permutation worker is at its largest.
 */
export interface FramingSessions {
  readonly x: Float64Array;
  readonly n: Float64Array;
  readonly weight: Float64Array;
  readonly id?: Int32Array;
}

/**
 * A game's two-action cells as the inversion sees them: first-action count, size and the sessions that
 * decided there, each session id numbered once for all the game's framings (the shared-session factor
 * matches a session across framings by its number).
 */
export function inversionFramings(cells: readonly PlannedCell[]): InversionFraming[] {
  const numbers = new Map<string, number>();
  return cells.map((pc) => inversionFraming(pc, numbers));
}

/** One two-action cell as the inversion sees it; `numbers` holds the session numbers given so far. */
function inversionFraming(pc: PlannedCell, numbers: Map<string, number>): InversionFraming {
  const first = pc.actions[0] as ActionId;
  const x = pc.cell.counts[first] ?? 0;
  const clusters = pc.cell.clusters;
  if (pc.unit !== "session" || clusters === undefined) return { x, n: pc.n };
  const ids = pc.cell.cluster_ids;
  const weights = pc.cell.cluster_weights;
  // Straight into typed arrays, cut to the sessions that decided in the cell.
  const chosen = new Float64Array(clusters.length);
  const sizes = new Float64Array(clusters.length);
  const listed = new Float64Array(clusters.length);
  const numbered = ids === undefined ? undefined : new Int32Array(clusters.length);
  let count = 0;
  for (let i = 0; i < clusters.length; i++) {
    const cluster = clusters[i] as Readonly<Record<string, number>>;
    let size = 0;
    for (const action in cluster) size += cluster[action] as number;
    if (!(size > 0)) continue;
    chosen[count] = cluster[first] ?? 0;
    sizes[count] = size;
    listed[count] = weights?.[i] ?? 1;
    if (numbered !== undefined) {
      const id = (ids as readonly string[])[i] as string;
      let number = numbers.get(id);
      if (number === undefined) {
        number = numbers.size;
        numbers.set(id, number);
      }
      numbered[count] = number;
    }
    count++;
  }
  const sessions: FramingSessions = {
    x: chosen.subarray(0, count),
    n: sizes.subarray(0, count),
    weight: listed.subarray(0, count),
    ...(numbered === undefined ? {} : { id: numbered.subarray(0, count) }),
  };
  return { x, n: pc.n, sessions };
}
