import { variance } from "../sampling/replicate-variance.js";
import type { GroupSample } from "./group-samples.js";
import { type Difference, welchWidened } from "./pair-differences.js";

/** One game of a group's shift: the cells of the planned pair's two framings and the cooperative action. */
export interface ShiftCells {
  readonly first: number;
  readonly second: number;
  readonly cooperative: number;
}

/**
 * The degrees of freedom of a group's shift variance (Satterthwaite over its independent blocks): each
 * block b (a cell drawn by decision, a cell's sessions, or sessions drawn jointly over cells) adds a
 * variance v_b from m_b units, and ν = (Σ v_b)² / Σ v_b²/(m_b − 1). v_b is the linearised variance of the
 * block's part of the shift, mean over games of π_second(C) − π_first(C): unit u adds
 * z_u = Σ ±(cooperative_u − π̂·decisions_u)/n over the shift's cells it decided in, and v_b = m/(m − 1)·Σ z_u².
 * A block of many decisions weighs little in the denominator; two sessions per cell give ν near 1 per cell.
 */
export function shiftDegreesOfFreedom(sample: GroupSample, games: readonly ShiftCells[]): number {
  // Each shift cell's sign and weight: ±1/(n·G), and its cooperative rate.
  const weight = new Map<number, number>();
  const cooperative = new Map<number, number>();
  const rate = new Map<number, number>();
  for (const { first, second, cooperative: a } of games) {
    for (const [c, sign] of [
      [first, -1],
      [second, 1],
    ] as const) {
      const cell = sample.cells[c] as GroupSample["cells"][number];
      weight.set(c, (weight.get(c) ?? 0) + sign / (cell.n * games.length));
      cooperative.set(c, a);
      rate.set(c, (cell.counts[a] as number) / cell.n);
    }
  }
  let total = 0;
  let denominator = 0;
  for (const stratum of sample.strata) {
    let v = 0;
    let m = 0;
    if (stratum.kind === "decisions") {
      const w = weight.get(stratum.cell);
      if (w === undefined) continue;
      const p = rate.get(stratum.cell) as number;
      m = stratum.sampler.n;
      v = w * w * m * p * (1 - p);
    } else {
      if (!stratum.cells.some((c) => weight.has(c))) continue;
      m = stratum.units.length;
      let squares = 0;
      for (const unit of stratum.units) {
        let z = 0;
        for (const { cell, action, count } of unit) {
          const w = weight.get(cell);
          if (w === undefined) continue;
          const chose = action === cooperative.get(cell) ? count : 0;
          z += w * (chose - (rate.get(cell) as number) * count);
        }
        squares += z * z;
      }
      v = m > 1 ? (m / (m - 1)) * squares : 0;
    }
    total += v;
    if (m > 1) denominator += (v * v) / (m - 1);
  }
  return denominator > 0 ? (total * total) / denominator : Number.POSITIVE_INFINITY;
}

/**
 * Where ν sits between the fewer side's degrees of freedom (0) and Satterthwaite's (1). Exploitability and
 * repeated play take halfway; over sessions halfway left four sessions spanning both framings against
 * single decisions at 92.4–93.6% (500 studies each on two grids), a quarter of the way held 94.6–98.2% on
 * every session row of bench/coverage/compare-coverage.ts.
 */
const TOWARD_WELCH = 0.25;

/**
 * A difference of the shift made at least as wide as Welch's t interval over the units its groups
 * resample (welchWidened, each side's ν from `shiftDegreesOfFreedom`, ν a quarter of the way from the
 * fewer side's to Satterthwaite's). The bootstrap over 2–4 sessions per cell is too short even spread by
 * √(m/(m − 1)): its replicates take a handful of values and its tails are a normal's where the truth is a
 * t of a few degrees of freedom (two sessions of 10 decisions per cell against sessions of 2, intra-session
 * correlation .3: 86.6–91.2% covered; four sessions spanning both framings against single decisions:
 * 87.4–90.6%; two sessions of 5 per cell against 60: 80.4%). Applied where either group is resampled by
 * session; groups of single decisions or schedule positions keep the bootstrap interval, which held on
 * their rows of the grid.
 */
export function sessionShiftWidened(
  difference: Difference,
  star: Float64Array,
  a: { readonly star: Float64Array; readonly sample: GroupSample; readonly games: readonly ShiftCells[] },
  b: { readonly star: Float64Array; readonly sample: GroupSample; readonly games: readonly ShiftCells[] },
  confidence: number,
): Difference {
  // welchWidened reads a side's degrees of freedom as its units − 1; a side of no variance to speak of
  // (ν infinite) counts as its decisions.
  const side = (s: typeof a) => {
    const nu = shiftDegreesOfFreedom(s.sample, s.games);
    return { variance: variance(s.star), units: 1 + (Number.isFinite(nu) ? nu : s.sample.decisions) };
  };
  return welchWidened(difference, star, side(a), side(b), false, confidence, TOWARD_WELCH);
}
