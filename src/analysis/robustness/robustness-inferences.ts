// The inference of every statistic of one analysis, from its point estimates, bootstrap replicates and
// (once they are in) permutation replicates: the R intervals, bias-corrected R and invariance p-values,
// and the percentile intervals of the shifts. Each statistic's inference is computed once, on demand.
import { percentileInterval } from "../sampling/percentile.js";
import { inversionFramings } from "./framing-sessions.js";
import { correlationFactor, meanInterval } from "./mean-interval.js";
import { type MultiActionFraming, MultiActionInversion } from "./multi-action-inversion.js";
import type { Estimate } from "./robustness-checks.js";
import {
  type BootstrapInference,
  belowOne,
  belowOneAttenuated,
  bootstrapInference,
  type RobustnessInference,
  withInvariance,
} from "./robustness-interval.js";
import { RobustnessInversion } from "./robustness-inversion.js";
import type { PlannedCell, RobustnessPlan } from "./robustness-plan.js";
import type { StatisticLayout } from "./robustness-statistics.js";

/** R with its interval, bias-corrected R and the invariance test: one row's R columns. */
export interface RColumns {
  readonly R: Estimate;
  readonly R_bias_corrected: number;
  readonly invariance: { readonly p_value: number; readonly permutations: number };
}

export class RobustnessInferences {
  private readonly halves = new Map<number, BootstrapInference>();
  /** Per game R by test inversion: its lower end, and its upper end should the invariance test reject. */
  private readonly inverted = new Map<number, { lower: number; upperIfRejected: number }>();
  private readonly inferences = new Map<number, RobustnessInference>();
  private readonly percentiles = new Map<number, readonly [number, number]>();
  private permuted: Float64Array | null = null;
  /** Per player or pooled R statistic: its games' R statistics and their correlation factor κ. */
  private readonly means = new Map<number, { games: readonly number[]; factor: number }>();
  /** The R statistics of games with three or more actions (multi-action-interval.ts). */
  private readonly multiAction = new Set<number>();

  constructor(
    private readonly plan: RobustnessPlan,
    private readonly layout: StatisticLayout,
    private readonly point: Float64Array,
    private readonly replicates: Float64Array,
    private readonly bootstrap: number,
    private readonly confidence: number,
    private readonly attenuation: number,
    /**
     * The statistics unattenuated, which the permutation rows (computed unattenuated) are compared with:
     * `point` itself when the attenuation is 1.
     */
    private readonly observed: Float64Array = point,
  ) {
    plan.units.forEach((u, i) => {
      if ((plan.cells[u.cells[0] as number] as PlannedCell).actions.length <= 2) return;
      this.multiAction.add(layout.unitR[i] as number);
      this.multiAction.add(layout.unitR2[i] as number);
    });
    // κ needs the replicates paired across games, so it is read before any inference reorders a row.
    const mean = (stat: number, games: readonly number[]): void => {
      const rows = games.map((g) => this.rows(replicates, g));
      this.means.set(stat, { games, factor: correlationFactor(this.rows(replicates, stat), rows) });
    };
    plan.players.forEach((p, i) => {
      mean(
        layout.playerR[i] as number,
        p.units.map((u) => layout.unitR[u] as number),
      );
    });
    mean(layout.pooledR, Array.from(layout.unitR));
  }

  private rows(a: Float64Array, stat: number): Float64Array {
    return a.subarray(stat * this.bootstrap, (stat + 1) * this.bootstrap);
  }

  private attenuate(r: number): number {
    return 1 - this.attenuation * (1 - r);
  }

  private unattenuate(r: number): number {
    return 1 - (1 - r) / this.attenuation;
  }

  /** The largest upper end below 1 when the invariance test rejects, in the attenuated scale of the estimates. */
  private get cap(): number {
    return belowOneAttenuated(this.attenuation);
  }

  /** The bootstrap half of an R's inference, once per statistic (it reorders the statistic's row). */
  private bootstrapHalf(stat: number): BootstrapInference {
    let half = this.halves.get(stat);
    if (half === undefined) {
      half = bootstrapInference(
        this.point[stat] as number,
        this.rows(this.replicates, stat),
        this.confidence,
        this.multiAction.has(stat),
      );
      this.halves.set(stat, half);
    }
    return half;
  }

  /**
   * Game-level R gets the test-inversion interval, its sessions (nested in its cells, or spanning cells,
   * each cell then holding its part of every session) entering by their design effect: the exact
   * two-action one, and for three or more actions that of multi-action-inversion.ts.
   * Its lower ends need the bootstrap alone, so they are placed here, while the permutation rows may still
   * be computing on the other core. So are the upper ends, as the test's rejection would need them (when
   * it does not reject, the end is 1): an inversion holds its tails' tables (megabytes per game at a
   * million decisions, RobustnessInversion), which then need not stay alive, every game's at once, until
   * the permutation test's verdict.
   */
  placeLowerEnds(): void {
    const { plan, layout } = this;
    plan.units.forEach((u, i) => {
      const first = plan.cells[u.cells[0] as number] as PlannedCell;
      const framingCells = u.cells.map((c) => plan.cells[c] as PlannedCell);
      if (first.actions.length < 2) return;
      this.invert(layout.unitR[i] as number, framingCells);
      if (layout.unitR2 !== layout.unitR) this.invert(layout.unitR2[i] as number, framingCells.slice(0, 2));
    });
  }

  private invert(stat: number, cells: readonly PlannedCell[]): void {
    const inversion: EndSearch =
      (cells[0] as PlannedCell).actions.length === 2
        ? new RobustnessInversion(inversionFramings(cells), this.confidence)
        : new MultiActionInversion(cells.map(multiActionFraming), this.confidence);
    const half = this.bootstrapHalf(stat);
    const lower = inversion.lowerEnd(this.unattenuate(half.lower));
    // Searched from where `inversionInterval` would start it once the test rejects: that inference's
    // upper end, belowOne(half.upper, estimate, cap) (withInvariance).
    const upperIfRejected = inversion.upperEnd(
      true,
      this.unattenuate(belowOne(half.upper, half.estimate, this.cap)),
    );
    this.inverted.set(stat, { lower, upperIfRejected });
  }

  /**
   * The permutation replicates (the invariance test's null distribution), needed by every R from here on:
   * unattenuated, as `observed` is.
   */
  withPermutations(permuted: Float64Array): void {
    this.permuted = permuted;
  }

  private inversionInterval(stat: number, inference: RobustnessInference): readonly [number, number] {
    const target = this.inverted.get(stat);
    if (target === undefined) return inference.ci;
    const rejects = inference.pValue <= 1 - this.confidence;
    const hi = rejects ? belowOne(this.attenuate(target.upperIfRejected), inference.estimate, this.cap) : 1;
    // The inversion caps its lower end at its own R̂, which is the reported estimate summed another way
    // (binary entropies there, the statistics' JSD here) and, with attenuation, mapped another way
    // (1 − a(1 − R) there, 1 − (a / ln 2)·JSD here): at R̂ = 0 with a = 0.7 the two gave 0.30000000000000004
    // and 0.29999999999999993, an interval "excluding" its estimate. The end is the estimate there, so the
    // cap is applied to the reported one.
    const lower = Number.isNaN(target.lower) ? inference.ci[0] : this.attenuate(target.lower);
    return [Math.min(lower, inference.estimate, hi), hi];
  }

  /** A player's or the pool's R interval from its games' (mean-interval.ts), with the test's rule at R = 1. */
  private meanCi(
    mean: { games: readonly number[]; factor: number },
    inference: RobustnessInference,
  ): readonly [number, number] {
    const [lower, upper] = meanInterval(
      mean.games.map((g) => this.robustness(g)),
      mean.factor,
    );
    const rejects = inference.pValue <= 1 - this.confidence;
    const hi = rejects ? belowOne(upper, inference.estimate, this.cap) : 1;
    return [Math.min(lower, inference.estimate, hi), hi];
  }

  /** The full inference of an R statistic. */
  robustness(stat: number): RobustnessInference {
    let inference = this.inferences.get(stat);
    if (inference === undefined) {
      if (this.permuted === null) throw new Error("The permutation replicates are not in yet.");
      const resampled = withInvariance(
        this.bootstrapHalf(stat),
        this.rows(this.permuted, stat),
        this.confidence,
        this.cap,
        this.observed[stat] as number,
      );
      const mean = this.means.get(stat);
      const ci = mean === undefined ? this.inversionInterval(stat, resampled) : this.meanCi(mean, resampled);
      inference = { ...resampled, ci };
      this.inferences.set(stat, inference);
    }
    return inference;
  }

  rColumns(stat: number): RColumns {
    const { estimate, ci, biasCorrected, pValue } = this.robustness(stat);
    return {
      R: { estimate, ci },
      R_bias_corrected: biasCorrected,
      invariance: { p_value: pValue, permutations: this.bootstrap },
    };
  }

  /** A statistic with its percentile-bootstrap interval (the shifts). */
  percentile(stat: number): Estimate {
    let ci = this.percentiles.get(stat);
    if (ci === undefined) {
      // Every replicate on one side of the estimate (a shift of ±1, where no replicate can go further)
      // leaves the estimate outside the percentile interval; the interval is then extended to it.
      const [lo, hi] = percentileInterval(this.rows(this.replicates, stat), this.confidence);
      const estimate = this.point[stat] as number;
      ci = [Math.min(lo, estimate), Math.max(hi, estimate)];
      this.percentiles.set(stat, ci);
    }
    return { estimate: this.point[stat] as number, ci };
  }

  /** `percentile`, or null for a statistic the layout leaves undefined (−1). */
  optionalPercentile(stat: number): Estimate | null {
    return stat < 0 ? null : this.percentile(stat);
  }
}

/** What the interval needs of a test inversion, two actions or more: its two ends. */
interface EndSearch {
  lowerEnd(guess: number): number;
  upperEnd(rejectsInvariance: boolean, guess: number): number;
}

/** A cell of three or more actions as its inversion sees it: counts per action, in the game's order, and its sessions. */
function multiActionFraming(pc: PlannedCell): MultiActionFraming {
  const counts = pc.actions.map((a) => pc.cell.counts[a] ?? 0);
  const clusters = pc.cell.clusters;
  if (pc.unit !== "session" || clusters === undefined) return { counts };
  const sessions = clusters.map((cluster, i) => ({
    counts: pc.actions.map((a) => cluster[a] ?? 0),
    weight: pc.cell.cluster_weights?.[i] ?? 1,
  }));
  return { counts, sessions };
}
