import { bernoulliEntropy, jensenShannon } from "../../domain/divergence.js";
import type { ActionId } from "../../domain/types.js";
import { throwIfCancelled } from "../progress/analysis-cancellation.js";
import { createBootstrapRng, type UniformSource } from "../sampling/fast-rng.js";
import { drawMultinomial } from "../sampling/multinomial-sampler.js";
import {
  type ClusterSumMethod,
  drawNormalClusterSums,
  drawsNormalSums,
  SessionMoments,
} from "../sampling/normal-cluster-sums.js";
import { cellKey } from "./comparison-rows.js";
import type { GroupSample, Stratum } from "./group-samples.js";
import { type PooledModel, type PooledReplicates, pooledEvaluator } from "./pooled-measures.js";

/** One game a group played under every compared framing: its R and planned shift, point and replicates. */
export interface GameReplicates {
  readonly game: string;
  readonly R: number;
  /** R in each bootstrap replicate. */
  readonly RStar: Float64Array;
  /** Δ_C = π_s(C) − π_b(C) of the planned pair, or null for a game without a cooperative action. */
  readonly shift: number | null;
  readonly shiftStar: Float64Array | null;
}

/**
 * Every replicate of every complete game of one group, from the group's own strata. Each stratum draws
 * from a stream named by its `stream` key (under the seed), so two groups with the same schedule block
 * draw the same positions: their replicates are paired; every other block is independent. The pooled
 * measures (λ, exploitability) over `pooled.games` are evaluated on the same replicates' counts.
 * A block of sessions large enough for `drawsNormalSums` under `clusterSums` (the robustness analysis's
 * thresholds: ≥ 200 sessions, ≥ 50 of them in each of its cells) draws its summed counts from their
 * normal approximation instead of drawing every session (normal-cluster-sums); schedule positions never
 * do (their pairing is position by position).
 */
export function groupReplicates(
  sample: GroupSample,
  framings: readonly string[],
  cooperativeAction: (game: string) => ActionId | null,
  actionsOf: (game: string) => readonly ActionId[],
  bootstrap: number,
  seed: number,
  pooled?: { readonly games: readonly string[]; readonly model: PooledModel },
  clusterSums: ClusterSumMethod = "exact",
): {
  games: Map<string, GameReplicates>;
  pooled: PooledReplicates[];
  pooledUnits: number;
  /** How many blocks of sessions drew their sums from the normal approximation. */
  normalBlocks: number;
} {
  const games = completeGames(sample, framings);
  const k = Math.max(1, ...sample.cells.map((c) => c.counts.length));
  const counts = new Int32Array(sample.cells.length * k);
  const rngs = sample.strata.map((s) => createBootstrapRng(`${seed}:${s.stream}`));
  const smoothingRng = createBootstrapRng(`${seed}:${sample.group}:smoothing`);
  const out = new Map<string, GameReplicates>();
  const evaluators = games.map(({ game, cells }) => {
    const cooperative = cooperativeAction(game);
    const c = cooperative === null ? -1 : actionsOf(game).indexOf(cooperative);
    const hasShift = c >= 0 && actionsOf(game).length === 2;
    const stat = gameStatistics(cells, k, hasShift ? c : -1);
    const observed = new Int32Array(sample.cells.length * k);
    sample.cells.forEach((cell, i) => {
      observed.set(cell.counts, i * k);
    });
    const pointValue = new Float64Array(2);
    stat(observed, pointValue);
    const point = { R: pointValue[0] as number, shift: pointValue[1] as number };
    const result: GameReplicates = {
      game,
      R: point.R,
      RStar: new Float64Array(bootstrap),
      shift: hasShift ? point.shift : null,
      shiftStar: hasShift ? new Float64Array(bootstrap) : null,
    };
    out.set(game, result);
    return { stat, result };
  });
  const pooledGames = pooled
    ? games
        .filter((g) => pooled.games.includes(g.game))
        .map((g) => ({ ...g, actions: actionsOf(g.game).length }))
    : [];
  const pool =
    pooled && pooledGames.length > 0 ? pooledEvaluator(pooledGames, k, pooled.model, bootstrap) : null;
  if (pool) {
    const observed = new Int32Array(sample.cells.length * k);
    sample.cells.forEach((cell, i) => {
      observed.set(cell.counts, i * k);
    });
    pool.observe(observed);
  }
  const scratch = new Int32Array(k);
  const widths = sample.cells.map((c) => c.counts.length);
  const normal = sample.strata.map((s, i) =>
    s.kind === "units" && sample.unit === "session"
      ? normalSums(s, k, bootstrap, rngs[i] as UniformSource, clusterSums)
      : null,
  );
  const flat = sample.strata.map((s, i) =>
    s.kind === "units" && normal[i] === null ? flatUnits(s.units, k) : null,
  );
  const value = new Float64Array(2);
  for (let b = 0; b < bootstrap; b++) {
    // A cancelled comparison stops here too: one group's replicates take seconds at 100,000 decisions.
    if ((b & 1023) === 0) throwIfCancelled();
    counts.fill(0);
    for (let s = 0; s < sample.strata.length; s++) {
      const stratum = sample.strata[s] as Stratum;
      const rng = rngs[s] as UniformSource;
      if (stratum.kind === "decisions") {
        drawMultinomial(stratum.sampler, rng, scratch, 0);
        const width = widths[stratum.cell] as number;
        for (let a = 0; a < width; a++) counts[stratum.cell * k + a] = scratch[a] as number;
        continue;
      }
      const sums = normal[s];
      if (sums) {
        const { draws, slots } = sums;
        const dims = slots.length;
        for (let p = 0; p < dims; p++) {
          const slot = slots[p] as number;
          counts[slot] = (counts[slot] as number) + (draws[b * dims + p] as number);
        }
      } else {
        const { starts, slots, adds } = flat[s] as FlatUnits;
        const n = starts.length - 1;
        for (let i = 0; i < n; i++) {
          const u = Math.floor(rng.next() * n);
          const end = starts[u + 1] as number;
          for (let e = starts[u] as number; e < end; e++) {
            const slot = slots[e] as number;
            counts[slot] = (counts[slot] as number) + (adds[e] as number);
          }
        }
      }
      // A degenerate cell's draw: its replicate size from the units, its counts from the smoothed cell.
      for (const c of stratum.cells) {
        const smooth = sample.smoothing.get(c);
        if (smooth === undefined) continue;
        const width = widths[c] as number;
        let n = 0;
        for (let a = 0; a < width; a++) n += counts[c * k + a] as number;
        drawMultinomial(smooth(n), smoothingRng, scratch, 0);
        for (let a = 0; a < width; a++) counts[c * k + a] = scratch[a] as number;
      }
    }
    for (const { stat, result } of evaluators) {
      stat(counts, value);
      result.RStar[b] = value[0] as number;
      if (result.shiftStar) result.shiftStar[b] = value[1] as number;
    }
    pool?.replicate(counts, b);
  }
  // The bootstrap variance of a mean of m resampled units is (m − 1)/m of the unbiased one, which makes
  // intervals of small cells too short (Efron's correction): each game's replicates are spread about their
  // mean by √(m/(m − 1)), m the fewest units any of its framing cells resamples.
  games.forEach(({ game, cells }) => {
    const m = Math.min(...cells.map((c) => unitsOf(sample, c)));
    if (!(m >= 2)) return;
    const factor = Math.sqrt(m / (m - 1));
    const result = out.get(game) as GameReplicates;
    spread(result.RStar, factor);
    if (result.shiftStar) spread(result.shiftStar, factor);
  });
  // The pooled measures, spread by the fewest units of any cell they use.
  const pooledResults = pool?.results() ?? [];
  const m = Math.min(...pooledGames.flatMap(({ cells }) => cells.map((c) => unitsOf(sample, c))));
  if (m >= 2) {
    for (const r of pooledResults) {
      spread(r.star, Math.sqrt(m / (m - 1)));
      // Spreading moves the replicates away from their mean, and those at a bound of the measure past it:
      // a group that cooperated every time in the prisoner's dilemma has exploitability 0.875, the largest
      // any play can have there, and its smoothed replicates, spread, reached 0.877, which no play gives.
      // A replicate past a bound is put back on it: the bound is what that replicate's play could at most
      // concede, and an interval is then never wider than the values the measure can take.
      // (λ's replicates keep their spread: its pair intervals read a replicate below 0 as the sampling
      // spread of a fit at the bound, and pair-differences.ts holds 0 in them by its own rule.)
      if (r.measure !== "exploitability") continue;
      const [low, high] = r.bounds;
      for (let b = 0; b < r.star.length; b++) r.star[b] = Math.min(high, Math.max(low, r.star[b] as number));
    }
  }
  return {
    games: out,
    pooled: pooledResults,
    pooledUnits: independentUnits(sample, pooledGames),
    normalBlocks: normal.filter((n) => n !== null).length,
  };
}

/**
 * Every replicate's summed counts of a block of sessions drawn from their normal approximation, when the
 * block is large enough (`drawsNormalSums`): replicate b's count at `slots[p]` is `draws[b·dims + p]`,
 * p over the block's cells × actions. Null where the sessions are drawn one by one.
 */
function normalSums(
  stratum: Extract<Stratum, { kind: "units" }>,
  k: number,
  bootstrap: number,
  rng: UniformSource,
  method: ClusterSumMethod,
): { draws: Int32Array; slots: Int32Array } | null {
  const local = new Map(stratum.cells.map((c, i) => [c, i]));
  // Sessions with decisions in each cell: a cell counts a unit once, however many of its actions it chose.
  const inCell = new Int32Array(stratum.cells.length);
  const lastUnit = new Int32Array(stratum.cells.length).fill(-1);
  stratum.units.forEach((unit, u) => {
    for (const entry of unit) {
      const i = local.get(entry.cell) as number;
      if (lastUnit[i] === u) continue;
      lastUnit[i] = u;
      inCell[i] = (inCell[i] as number) + 1;
    }
  });
  if (!drawsNormalSums(method, stratum.units.length, Math.min(...inCell))) return null;
  const dims = stratum.cells.length * k;
  const moments = new SessionMoments(dims);
  const position = new Int32Array(dims);
  const value = new Int32Array(dims);
  for (const unit of stratum.units) {
    unit.forEach((entry, e) => {
      position[e] = (local.get(entry.cell) as number) * k + entry.action;
      value[e] = entry.count;
    });
    moments.add(position, value, 0, unit.length, 1);
  }
  const draws = new Int32Array(bootstrap * dims);
  // A block of one cell: every session drawn has decisions there, so no replicate of it is empty.
  drawNormalClusterSums(moments, rng, bootstrap, draws, stratum.cells.length === 1);
  const slots = Int32Array.from(
    { length: dims },
    (_, p) => (stratum.cells[Math.floor(p / k)] as number) * k + (p % k),
  );
  return { draws, slots };
}

/** A stratum's units in flat arrays: unit u adds adds[e] at counts[slots[e]] for e in [starts[u], starts[u + 1]). */
interface FlatUnits {
  readonly starts: Int32Array;
  readonly slots: Int32Array;
  readonly adds: Int32Array;
}

/** The units laid out flat once, so a replicate's draws walk arrays instead of an object per entry. */
function flatUnits(units: Extract<Stratum, { kind: "units" }>["units"], k: number): FlatUnits {
  const starts = new Int32Array(units.length + 1);
  let entries = 0;
  units.forEach((unit, u) => {
    starts[u] = entries;
    entries += unit.length;
  });
  starts[units.length] = entries;
  const slots = new Int32Array(entries);
  const adds = new Int32Array(entries);
  let e = 0;
  for (const unit of units) {
    for (const entry of unit) {
      slots[e] = entry.cell * k + entry.action;
      adds[e] = entry.count;
      e++;
    }
  }
  return { starts, slots, adds };
}

/**
 * How many independent units the pooled measures' cells are drawn from: the decisions, sessions or
 * schedule positions of every stratum that holds one of them, a stratum spanning cells counted once.
 */
function independentUnits(sample: GroupSample, games: readonly { cells: readonly number[] }[]): number {
  const cells = new Set(games.flatMap((g) => g.cells));
  let units = 0;
  for (const s of sample.strata) {
    if (s.kind === "decisions" && cells.has(s.cell)) units += s.sampler.n;
    if (s.kind === "units" && s.cells.some((c) => cells.has(c))) units += s.units.length;
  }
  return units;
}

/** How many units the stratum of cell `c` draws: its decisions, sessions or schedule positions. */
function unitsOf(sample: GroupSample, c: number): number {
  for (const s of sample.strata) {
    if (s.kind === "decisions" && s.cell === c) return s.sampler.n;
    if (s.kind === "units" && s.cells.includes(c)) return s.units.length;
  }
  return sample.cells[c]?.n ?? 0;
}

export function spread(values: Float64Array, factor: number): void {
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  for (let b = 0; b < values.length; b++) values[b] = mean + ((values[b] as number) - mean) * factor;
}

/** The games the group played under every framing, with the cell index of each framing in order. */
export function completeGames(
  sample: GroupSample,
  framings: readonly string[],
): { game: string; cells: number[] }[] {
  const games = [...new Set(sample.cells.map((c) => c.game))].sort();
  const complete: { game: string; cells: number[] }[] = [];
  for (const game of games) {
    const cells = framings.map((f) => sample.cellIndex.get(cellKey(game, f)));
    if (cells.every((c) => c !== undefined)) complete.push({ game, cells: cells as number[] });
  }
  return complete;
}

/**
 * R = 1 − max_{f,f'} JSD(π_f, π_f') / ln 2 over the framings' cells, and the planned shift π_1(C) − π_0(C),
 * from counts laid out `k` per cell. A replicate cell with no decisions (a session draw that missed it)
 * counts as the uniform distribution's absence: it is left out of the maximum.
 */
function gameStatistics(
  cells: readonly number[],
  k: number,
  cooperative: number,
): (counts: Int32Array, out: Float64Array) => void {
  const probabilities = cells.map(() => new Float64Array(k));
  const sizes = new Float64Array(cells.length);
  const firsts = new Int32Array(cells.length);
  // Two actions and one size n in every framing (every draw by decision or position): the JSD of cells
  // x and y out of n is H2[x + y] − (H2[2x] + H2[2y])/2, H2[s] the binary entropy of s/(2n), a lookup.
  const tables = new Map<number, Float64Array>();
  const tableOf = (n: number): Float64Array => {
    let table = tables.get(n);
    if (table === undefined) {
      table = new Float64Array(2 * n + 1);
      for (let t = 0; t <= 2 * n; t++) table[t] = bernoulliEntropy(t / (2 * n));
      tables.set(n, table);
    }
    return table;
  };
  return (counts, out) => {
    let equal = k === 2;
    for (let f = 0; f < cells.length; f++) {
      const c = cells[f] as number;
      let n = 0;
      for (let a = 0; a < k; a++) n += counts[c * k + a] as number;
      sizes[f] = n;
      firsts[f] = counts[c * k] as number;
      if (n !== sizes[0] || n === 0) equal = false;
      const p = probabilities[f] as Float64Array;
      for (let a = 0; a < k; a++) p[a] = n > 0 ? (counts[c * k + a] as number) / n : 0;
    }
    let max = 0;
    if (equal) {
      const h = tableOf(sizes[0] as number);
      for (let f = 0; f < cells.length; f++) {
        const x = firsts[f] as number;
        const hx = h[2 * x] as number;
        for (let g = f + 1; g < cells.length; g++) {
          const y = firsts[g] as number;
          const jsd = (h[x + y] as number) - (hx + (h[2 * y] as number)) / 2;
          if (jsd > max) max = jsd;
        }
      }
      max = Math.min(max, Math.LN2);
    } else {
      for (let f = 0; f < cells.length; f++) {
        if (sizes[f] === 0) continue;
        for (let g = f + 1; g < cells.length; g++) {
          if (sizes[g] === 0) continue;
          const jsd = jensenShannon(probabilities[f] as Float64Array, probabilities[g] as Float64Array);
          if (jsd > max) max = jsd;
        }
      }
    }
    const shift =
      cooperative < 0 || sizes[0] === 0 || sizes[1] === 0
        ? 0
        : ((probabilities[1] as Float64Array)[cooperative] as number) -
          ((probabilities[0] as Float64Array)[cooperative] as number);
    out[0] = 1 - max / Math.LN2;
    out[1] = shift;
  };
}
