import {
  binaryPairJsd,
  binaryUnitJsd,
  cellEntropies,
  type EntropyTable,
  entropyTable,
  pairJsd,
} from "../../domain/divergence.js";
import type { PlannedCell, PlannedUnit, RobustnessPlan } from "./robustness-plan.js";

/** Row of each statistic: statistic s of replicate r is stored at `s * replicates + r`. −1 = undefined. */
export interface StatisticLayout {
  readonly count: number;
  readonly unitR: Int32Array;
  /** Equal to `unitR` when only two framings are analysed (then R2 is R). */
  readonly unitR2: Int32Array;
  readonly unitShift: Int32Array;
  readonly playerR: Int32Array;
  readonly playerShift: Int32Array;
  readonly pooledR: number;
  readonly pooledShift: number;
}

/**
 * Writes `replicates` sets of counts of plan cell `cell` into `out` (replicate r at r·k). A fill may also
 * give, once a (player, game)'s cells are filled, a factor per replicate its largest JSDs are multiplied by
 * (the session-design null's studentization); none = 1.
 */
export type FillCell = ((cell: number, replicates: number, out: Int32Array) => void) & {
  readonly statisticScale?: (unit: number) => Float64Array | null;
  /**
   * Asked before a (player, game)'s cells: true when the fill leaves the whole unit to be computed
   * elsewhere (`evaluateUnit`, before `evaluate`'s `beforeMeans` returns); its rows are not written here.
   */
  readonly defers?: (unit: number, replicates: number) => boolean;
};

function layoutStatistics(plan: RobustnessPlan): StatisticLayout {
  let count = 0;
  const unitR = Int32Array.from(plan.units, () => count++);
  const unitR2 = plan.framings.length === 2 ? unitR : Int32Array.from(plan.units, () => count++);
  const unitShift = Int32Array.from(plan.units, (u) => (u.cooperativeIndex >= 0 ? count++ : -1));
  const playerR = Int32Array.from(plan.players, () => count++);
  const playerShift = Int32Array.from(plan.players, (p) =>
    p.units.some((u) => unitShift[u] !== -1) ? count++ : -1,
  );
  const pooledR = count++;
  const pooledShift = unitShift.some((s) => s !== -1) ? count++ : -1;
  return { count, unitR, unitR2, unitShift, playerR, playerShift, pooledR, pooledShift };
}

/**
 * The one computation that turns counts into statistics, used for the point estimate (one "replicate":
 * the data) and for the bootstrap alike, so both are computed identically (SPEC §4). It works
 * column-wise, one (player, game) at a time over all replicates: its cells' counts, the JSD of every pair
 * of framings, R from the largest, R2 from the planned pair (framings 0 and 1) and the cooperative shift,
 * each attenuated; then player means and the pooled mean.
 *
 * Attenuation is applied in the form R_cons = 1 − a(1 − R) = 1 − a·JSD/ln 2 and Δ_cons = a·Δ.
 */
export class StatisticsEvaluator {
  readonly layout: StatisticLayout;
  private readonly tables = new Map<number, EntropyTable>();
  private readonly pairs: readonly (readonly [number, number])[];
  private scratch: UnitWork | null = null;

  constructor(
    private readonly plan: RobustnessPlan,
    private readonly attenuation: number,
  ) {
    this.layout = layoutStatistics(plan);
    const pairs: [number, number][] = [];
    const f = plan.framings.length;
    for (let i = 0; i < f; i++) for (let j = i + 1; j < f; j++) pairs.push([i, j]);
    this.pairs = pairs;
  }

  /**
   * Compute every statistic for `replicates` sets of counts into `out` (one row per statistic). Units the
   * fill defers are computed elsewhere (`evaluateUnit`) by the time `beforeMeans` returns.
   */
  evaluate(fill: FillCell, replicates: number, out: Float64Array, beforeMeans?: () => void): void {
    const { plan } = this;
    const B = replicates;
    const work = this.unitWork(B);
    plan.units.forEach((unit, u) => {
      if (fill.defers?.(u, B)) return;
      unit.cells.forEach((c, f) => {
        fill(c, B, work.counts[f] as Int32Array);
      });
      this.unitRows(u, B, work, fill.statisticScale?.(u) ?? null, out);
    });
    beforeMeans?.();
    this.means(B, out);
  }

  /**
   * The rows of one (player, game) from its cells' counts (framing f's at `counts[f]`, replicate r at r·k)
   * and its statistics' scale if any: what `evaluate` writes for it.
   */
  evaluateUnit(
    u: number,
    counts: readonly Int32Array[],
    scale: Float64Array | null,
    replicates: number,
    out: Float64Array,
  ): void {
    // One set of scratch rows for every unit evaluated this way (a unit at a time, on one thread).
    if (this.scratch === null || (this.scratch.jsd as Float64Array).length !== replicates) {
      this.scratch = this.unitWork(replicates, false);
    }
    this.unitRows(u, replicates, { ...this.scratch, counts: [...counts] }, scale, out);
  }

  private unitWork(B: number, withCounts = true): UnitWork {
    const framings = this.plan.framings.length;
    const maxK = Math.max(...this.plan.cells.map((c) => c.actions.length));
    return {
      counts: withCounts ? Array.from({ length: framings }, () => new Int32Array(B * maxK)) : [],
      entropy: Array.from({ length: framings }, () => new Float64Array(B)),
      sizes: Array.from({ length: framings }, () => new Int32Array(B)),
      jsd: new Float64Array(B),
    };
  }

  private unitRows(
    u: number,
    B: number,
    work: UnitWork,
    scale: Float64Array | null,
    out: Float64Array,
  ): void {
    const { plan, layout } = this;
    const row = (stat: number): Float64Array => out.subarray(stat * B, stat * B + B);
    const unit = plan.units[u] as PlannedUnit;
    const shift = layout.unitShift[u] as number;
    this.unitStatistics(
      unit,
      B,
      work,
      row(layout.unitR[u] as number),
      layout.unitR2 === layout.unitR ? null : row(layout.unitR2[u] as number),
      shift < 0 ? null : row(shift),
    );
    if (scale !== null) {
      // 1 − R is a·JSD/ln 2: scaling it scales the JSD.
      for (const r of layout.unitR2 === layout.unitR ? [layout.unitR] : [layout.unitR, layout.unitR2]) {
        const target = row(r[u] as number);
        for (let i = 0; i < B; i++) target[i] = 1 - (1 - (target[i] as number)) * (scale[i] as number);
      }
    }
  }

  /** The player and pooled rows: means of the unit rows. */
  private means(B: number, out: Float64Array): void {
    const { plan, layout } = this;
    const definedRows = (rows: Int32Array, units: readonly number[]): number[] =>
      units.map((u) => rows[u] as number).filter((s) => s >= 0);
    plan.players.forEach((player, p) => {
      meanRows(out, B, definedRows(layout.unitR, player.units), layout.playerR[p] as number);
      const shift = layout.playerShift[p] as number;
      if (shift >= 0) meanRows(out, B, definedRows(layout.unitShift, player.units), shift);
    });
    const everyUnit = plan.units.map((_, u) => u);
    meanRows(out, B, definedRows(layout.unitR, everyUnit), layout.pooledR);
    if (layout.pooledShift >= 0) {
      meanRows(out, B, definedRows(layout.unitShift, everyUnit), layout.pooledShift);
    }
  }

  private tableFor(m: number): EntropyTable {
    let table = this.tables.get(m);
    if (table === undefined) {
      table = entropyTable(m);
      this.tables.set(m, table);
    }
    return table;
  }

  /** R, R2 (when separate) and shift rows of one (player, game) whose cells are in `work.counts`. */
  private unitStatistics(
    unit: PlannedUnit,
    B: number,
    work: UnitWork,
    rRow: Float64Array,
    r2Row: Float64Array | null,
    shiftRow: Float64Array | null,
  ): void {
    const cells = unit.cells.map((c) => this.plan.cells[c] as PlannedCell);
    const k = (cells[0] as PlannedCell).actions.length;
    const n = (cells[0] as PlannedCell).n;
    const fixedSizes = cells.every((c) => c.unit === "decision" && c.n === n);
    const { counts, entropy, sizes, jsd } = work;

    if (r2Row === null && k === 2 && fixedSizes) {
      binaryPairJsd(
        counts[0] as Int32Array,
        counts[1] as Int32Array,
        this.tableFor(n),
        this.tableFor(2 * n),
        B,
        rRow,
      );
    } else if (k === 2 && this.pairs.length > 1) {
      // Two actions: the largest JSD is that of the framings with the lowest and highest share.
      const sameN = cells.every((c) => c.n === n);
      const [c0, c1] = cells as [PlannedCell, PlannedCell];
      binaryUnitJsd(
        counts,
        cells.map((cell) => this.tableFor(cell.n)),
        sameN ? this.tableFor(2 * n) : null,
        c0.n === c1.n ? this.tableFor(2 * c0.n) : null,
        B,
        rRow,
        r2Row,
        sizes[0] as Int32Array,
        sizes[1] as Int32Array,
      );
    } else {
      cells.forEach((cell, f) => {
        cellEntropies(
          counts[f] as Int32Array,
          k,
          this.tableFor(cell.n),
          B,
          entropy[f] as Float64Array,
          sizes[f] as Int32Array,
        );
      });
      this.pairs.forEach(([a, b], p) => {
        const ca = cells[a] as PlannedCell;
        const cb = cells[b] as PlannedCell;
        pairJsd(
          counts[a] as Int32Array,
          counts[b] as Int32Array,
          entropy[a] as Float64Array,
          entropy[b] as Float64Array,
          sizes[a] as Int32Array,
          sizes[b] as Int32Array,
          k,
          ca.n === cb.n ? this.tableFor(2 * ca.n) : null,
          B,
          jsd,
        );
        if (p === 0) {
          rRow.set(jsd);
          r2Row?.set(jsd);
        } else {
          for (let r = 0; r < B; r++)
            if ((jsd[r] as number) > (rRow[r] as number)) rRow[r] = jsd[r] as number;
        }
      });
    }
    // rRow (and r2Row) now hold the largest (planned) JSD; turn them into conservative robustness.
    const scale = this.attenuation / Math.LN2;
    for (let r = 0; r < B; r++) rRow[r] = 1 - scale * (rRow[r] as number);
    if (r2Row !== null) for (let r = 0; r < B; r++) r2Row[r] = 1 - scale * (r2Row[r] as number);

    if (shiftRow === null) return;
    const coop = unit.cooperativeIndex;
    const base = counts[0] as Int32Array;
    const shifted = counts[1] as Int32Array;
    const a = this.attenuation;
    if (fixedSizes) {
      for (let r = 0; r < B; r++) {
        shiftRow[r] = a * ((shifted[r * k + coop] as number) / n - (base[r * k + coop] as number) / n);
      }
    } else {
      const nBase = sizes[0] as Int32Array;
      const nShifted = sizes[1] as Int32Array;
      for (let r = 0; r < B; r++) {
        const delta =
          (shifted[r * k + coop] as number) / (nShifted[r] as number) -
          (base[r * k + coop] as number) / (nBase[r] as number);
        shiftRow[r] = a * delta;
      }
    }
  }
}

/** Scratch rows for one (player, game), one per framing. */
interface UnitWork {
  readonly counts: Int32Array[];
  readonly entropy: Float64Array[];
  readonly sizes: Int32Array[];
  readonly jsd: Float64Array;
}

/**
 * Row `target` = unweighted mean of rows `parts`, summed from 0 in the given order — the order the
 * verification check uses to confirm that aggregates are the means of their parts. Row by row into the
 * target (sequential reads): the same additions in the same order for every replicate.
 */
function meanRows(out: Float64Array, B: number, parts: readonly number[], target: number): void {
  const at = target * B;
  out.fill(0, at, at + B);
  for (const part of parts) {
    const from = part * B;
    for (let r = 0; r < B; r++) out[at + r] = (out[at + r] as number) + (out[from + r] as number);
  }
  for (let r = 0; r < B; r++) out[at + r] = (out[at + r] as number) / parts.length;
}
