import {
  binaryPairJsd,
  binaryUnitJsd,
  cellEntropies,
  type EntropyTable,
  entropyTable,
  pairJsd,
} from "./divergence.js";
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

/** Writes `replicates` sets of counts of plan cell `cell` into `out` (replicate r at r·k). */
export type FillCell = (cell: number, replicates: number, out: Int32Array) => void;

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

  /** Compute every statistic for `replicates` sets of counts into `out` (one row per statistic). */
  evaluate(fill: FillCell, replicates: number, out: Float64Array): void {
    const { plan, layout } = this;
    const B = replicates;
    const framings = plan.framings.length;
    const maxK = Math.max(...plan.cells.map((c) => c.actions.length));
    const work: UnitWork = {
      counts: Array.from({ length: framings }, () => new Int32Array(B * maxK)),
      entropy: Array.from({ length: framings }, () => new Float64Array(B)),
      sizes: Array.from({ length: framings }, () => new Int32Array(B)),
      jsd: new Float64Array(B),
    };
    const row = (stat: number): Float64Array => out.subarray(stat * B, stat * B + B);
    // Player and pooled means are summed as each unit's rows are written, while they are still in cache
    // (summing them afterwards streamed every row from memory again). A player's units come in plan
    // order, so each sum adds the same rows in the same order as `meanRows` would.
    const sums = this.meanTargets();
    for (const target of sums.targets) out.fill(0, target * B, target * B + B);

    plan.units.forEach((unit, u) => {
      unit.cells.forEach((c, f) => {
        fill(c, B, work.counts[f] as Int32Array);
      });
      const shift = layout.unitShift[u] as number;
      this.unitStatistics(
        unit,
        B,
        work,
        row(layout.unitR[u] as number),
        layout.unitR2 === layout.unitR ? null : row(layout.unitR2[u] as number),
        shift < 0 ? null : row(shift),
      );
      for (const [part, target] of sums.byUnit[u] as [number, number][]) addRow(out, B, part, target);
    });
    for (const [target, count] of sums.counts) divideRow(out, B, target, count);
  }

  /**
   * For each unit, the (unit row, mean row) pairs it adds to — its R into its player's and the pooled R,
   * its shift (when defined) into its player's and the pooled shift — and each mean row's count of parts.
   */
  private meanTargets(): {
    targets: number[];
    byUnit: [number, number][][];
    counts: Map<number, number>;
  } {
    const { plan, layout } = this;
    const byUnit: [number, number][][] = plan.units.map(() => []);
    const counts = new Map<number, number>();
    const add = (u: number, part: number, target: number): void => {
      if (part < 0 || target < 0) return;
      (byUnit[u] as [number, number][]).push([part, target]);
      counts.set(target, (counts.get(target) ?? 0) + 1);
    };
    plan.players.forEach((player, p) => {
      for (const u of player.units) {
        add(u, layout.unitR[u] as number, layout.playerR[p] as number);
        add(u, layout.unitShift[u] as number, layout.playerShift[p] as number);
      }
    });
    plan.units.forEach((_, u) => {
      add(u, layout.unitR[u] as number, layout.pooledR);
      add(u, layout.unitShift[u] as number, layout.pooledShift);
    });
    // The sums must add a target's parts in increasing unit order, as the evaluation writes them.
    for (const player of plan.players) {
      if (player.units.some((u, i) => i > 0 && u <= (player.units[i - 1] as number))) {
        throw new Error(
          "A player's units are out of plan order; the means would be summed in another order.",
        );
      }
    }
    return { targets: [...counts.keys()], byUnit, counts };
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

/** Row `target` += row `part` (sums from 0 in the order the parts are added: the check that aggregates are the means of their parts adds them in the same order). */
function addRow(out: Float64Array, B: number, part: number, target: number): void {
  const at = target * B;
  const from = part * B;
  for (let r = 0; r < B; r++) out[at + r] = (out[at + r] as number) + (out[from + r] as number);
}

/** Row `target` /= count: the unweighted mean of its parts. */
function divideRow(out: Float64Array, B: number, target: number, count: number): void {
  const at = target * B;
  for (let r = 0; r < B; r++) out[at + r] = (out[at + r] as number) / count;
}
