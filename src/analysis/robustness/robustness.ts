import type { ActionId, Distribution } from "../../domain/types.js";
import type { CountCell } from "../count-cells.js";
import { jensenShannon } from "../divergence.js";
import { fillPermutationRows, startPermutationRows } from "../invariance/permutation-replicates.js";
import { type BootstrapOptions, bootstrapSettings } from "../sampling/bootstrap-options.js";
import { createCellResampler, drawCellReplicates } from "../sampling/cell-resampling.js";
import { createBootstrapRng } from "../sampling/fast-rng.js";
import { drawJointReplicates, jointSessionPlayers } from "../sampling/joint-session-resampling.js";
import { percentileInterval } from "../sampling/percentile.js";
import {
  type Check,
  type DesignSize,
  type Estimate,
  type Note,
  robustnessChecks,
  robustnessNotes,
} from "./robustness-checks.js";
import {
  type BootstrapInference,
  bootstrapInference,
  INVARIANCE_METHOD,
  ROBUSTNESS_INTERVAL_METHOD,
  type RobustnessInference,
  withInvariance,
} from "./robustness-interval.js";
import { INVERSION_METHOD, type InversionFraming, RobustnessInversion } from "./robustness-inversion.js";
import { type PlannedCell, planRobustness, type ResamplingUnit } from "./robustness-plan.js";
import { StatisticsEvaluator } from "./robustness-statistics.js";

export interface RobustnessOptions extends BootstrapOptions {
  /** Framings to compare, in order: [0] is the baseline b and [1] the shifted s of the planned pair. */
  readonly framings?: readonly string[];
  /** a ∈ (0, 1]; 1 (the default) reports R and shifts as measured. */
  readonly attenuation?: number;
  /** The cooperative action of every game, or null for games without one (no shift then). */
  readonly cooperativeAction: Readonly<Record<string, ActionId | null>>;
  /** The design's size, for the design checks. */
  readonly expected?: DesignSize;
}

/** The permutation test of "every framing shares one distribution" (SPEC §4 inference for invariance). */
export interface InvarianceTest {
  readonly p_value: number;
  readonly permutations: number;
}

export interface ShiftEstimate extends Estimate {
  readonly cooperative_action: ActionId;
}

export interface GameRobustness {
  readonly player: string;
  readonly game: string;
  readonly unit: ResamplingUnit;
  /** Plug-in R with its interval (ROBUSTNESS_INTERVAL_METHOD). */
  readonly R: Estimate;
  /** R with the bootstrap estimate of its (downward) bias removed, on the scale D = √(1 − R): 1 − (2D̂ − mean D*)². */
  readonly R_bias_corrected: number;
  readonly invariance: InvarianceTest;
  /** R of the planned pair (framings[0], framings[1]); equals R when two framings are analysed. */
  readonly R2: Estimate;
  readonly shift: ShiftEstimate | null;
  /** Unattenuated JSD of every pair of framings. */
  readonly pairwise_jsd: readonly { readonly framings: readonly [string, string]; readonly jsd: number }[];
  readonly distributions: Readonly<
    Record<string, { readonly n: number; readonly distribution: Distribution }>
  >;
}

export interface PlayerRobustness {
  readonly player: string;
  readonly unit: ResamplingUnit;
  /**
   * "cell": sessions (or decisions) resampled within each cell; "player": the player's sessions span
   * cells and are resampled jointly across all its cells (joint cluster bootstrap).
   */
  readonly cluster_scope: "cell" | "player";
  readonly games: number;
  readonly R: Estimate;
  readonly R_bias_corrected: number;
  readonly invariance: InvarianceTest;
  readonly shift: Estimate | null;
}

export interface RobustnessResult {
  /** "session" when at least one player's decisions were resampled by session. */
  readonly unit: ResamplingUnit;
  readonly attenuation: number;
  readonly bootstrap: number;
  readonly seed: number;
  readonly confidence: number;
  readonly interval_method: string;
  readonly invariance_method: string;
  readonly framings: readonly string[];
  readonly planned_pair: readonly [string, string];
  readonly cells: number;
  readonly decisions: number;
  readonly games: readonly GameRobustness[];
  readonly players: readonly PlayerRobustness[];
  readonly pooled: {
    readonly games: number;
    readonly R: Estimate;
    readonly R_bias_corrected: number;
    readonly invariance: InvarianceTest;
    readonly shift: Estimate | null;
  };
  readonly checks: readonly Check[];
  readonly notes: readonly Note[];
}

const INTERVAL_METHOD = `R and R2 of a two-action game (sessions, if any, nested in cells): ${INVERSION_METHOD}. R and R2 of other games and of players whose sessions span cells, and player and pooled R: ${ROBUSTNESS_INTERVAL_METHOD}; shifts: percentile bootstrap. Percentiles by linear interpolation between order statistics (numpy's default)`;

/**
 * Strategic robustness of every (player, game) across framings, with player-level and pooled aggregates,
 * percentile-bootstrap intervals for all of them and the SPEC §4 verification checks. The output is the
 * `analyze robustness --json` / `robustness` tool contract of DESIGN.md.
 */
export function robustnessAnalysis(
  cells: readonly CountCell[],
  options: RobustnessOptions,
): RobustnessResult {
  const { bootstrap, seed, confidence } = bootstrapSettings(options);
  const { attenuation = 1 } = options;
  if (!(attenuation > 0 && attenuation <= 1)) {
    throw new Error(`Attenuation ${attenuation} is invalid; it must lie in (0, 1].`);
  }
  const plan = planRobustness(cells, options.framings, options.cooperativeAction);
  const evaluator = new StatisticsEvaluator(plan, attenuation);
  const { layout } = evaluator;

  const point = new Float64Array(layout.count);
  evaluator.evaluate(
    (c, _replicates, out) => {
      const pc = plan.cells[c] as (typeof plan.cells)[number];
      out.set(plan.observed.subarray(pc.offset, pc.offset + pc.actions.length));
    },
    1,
    point,
  );

  // Each cell's replicates are drawn in one run, cell after cell in plan order, from one seeded stream;
  // the cells of a player whose sessions span cells are instead filled from that player's joint session
  // draws (a stream of its own per player), so one replicate resamples each session once for all cells.
  // The null distribution: the same statistics on framing-permuted data, from a stream of its own,
  // on the second core while this thread draws the bootstrap (permutation-replicates).
  const pendingPermutation = startPermutationRows(
    {
      cells,
      framings: options.framings,
      cooperativeAction: options.cooperativeAction,
      attenuation,
      seed,
      bootstrap,
    },
    layout.count,
    plan.units.length,
    (out) => fillPermutationRows(plan, evaluator, seed, bootstrap, out),
  );
  const rng = createBootstrapRng(seed);
  const joint = jointSessionPlayers(plan);
  const jointCells = new Map<number, Int32Array>();
  for (const j of joint) {
    const drawn = drawJointReplicates(j, bootstrap, createBootstrapRng(`${seed}:joint:${j.player}`));
    for (const [c, counts] of drawn) jointCells.set(c, counts);
  }
  const replicates = new Float64Array(layout.count * bootstrap);
  evaluator.evaluate(
    (c, b, out) => {
      // A joint player's cells come from its session draws; only the others need a cell resampler.
      const shared = jointCells.get(c);
      if (shared === undefined)
        drawCellReplicates(createCellResampler(plan.cells[c] as PlannedCell), rng, b, out);
      else out.set(shared);
    },
    bootstrap,
    replicates,
  );

  const jointPlayers = new Set(joint.map((j) => j.player));
  const rows = (a: Float64Array, stat: number) => a.subarray(stat * bootstrap, (stat + 1) * bootstrap);
  // The bootstrap half of each R's inference, once per statistic (it reorders the statistic's row).
  const bootstrapHalves = new Map<number, BootstrapInference>();
  const bootstrapHalf = (stat: number): BootstrapInference => {
    let half = bootstrapHalves.get(stat);
    if (half === undefined) {
      half = bootstrapInference(point[stat] as number, rows(replicates, stat), confidence);
      bootstrapHalves.set(stat, half);
    }
    return half;
  };

  // Game-level R of a two-action game whose cells resample on their own: the test-inversion interval.
  // Its lower ends need the bootstrap alone, so they are placed while the permutation rows may still be
  // computing on the other core; the upper ends wait for the permutation test's verdict.
  const attenuate = (r: number): number => 1 - attenuation * (1 - r);
  const unattenuate = (r: number): number => 1 - (1 - r) / attenuation;
  const inverted = new Map<number, { inversion: RobustnessInversion; lower: number }>();
  const invert = (stat: number, unit: number, framings: readonly number[]): void => {
    const u = plan.units[unit] as (typeof plan.units)[number];
    const inversion = new RobustnessInversion(
      framings.map((f) => inversionFraming(plan.cells[u.cells[f] as number] as PlannedCell)),
      confidence,
    );
    inverted.set(stat, { inversion, lower: inversion.lowerEnd(unattenuate(bootstrapHalf(stat).lower)) });
  };
  plan.units.forEach((u, i) => {
    const first = plan.cells[u.cells[0] as number] as PlannedCell;
    if (first.actions.length !== 2 || jointPlayers.has(u.player)) return;
    invert(
      layout.unitR[i] as number,
      i,
      u.cells.map((_, f) => f),
    );
    if (layout.unitR2 !== layout.unitR) invert(layout.unitR2[i] as number, i, [0, 1]);
  });

  const permuted = pendingPermutation.take();
  const inversionInterval = (stat: number, inference: RobustnessInference): readonly [number, number] => {
    const target = inverted.get(stat);
    if (target === undefined) return inference.ci;
    const rejects = inference.pValue <= 1 - confidence;
    const hi = target.inversion.upperEnd(rejects, unattenuate(inference.ci[1]));
    const lower = Number.isNaN(target.lower)
      ? Math.min(inference.ci[0], inference.estimate)
      : attenuate(target.lower);
    return [Math.min(lower, attenuate(hi)), attenuate(hi)];
  };
  const inferences = new Map<number, RobustnessInference>();
  const robustness = (stat: number): RobustnessInference => {
    let inference = inferences.get(stat);
    if (inference === undefined) {
      const resampled = withInvariance(bootstrapHalf(stat), rows(permuted, stat), confidence);
      inference = { ...resampled, ci: inversionInterval(stat, resampled) };
      inferences.set(stat, inference);
    }
    return inference;
  };
  const rEstimate = (stat: number) => {
    const { estimate, ci, biasCorrected, pValue } = robustness(stat);
    return {
      R: { estimate, ci },
      R_bias_corrected: biasCorrected,
      invariance: { p_value: pValue, permutations: bootstrap },
    };
  };

  const intervals = new Map<number, readonly [number, number]>();
  const estimate = (stat: number): Estimate => {
    let ci = intervals.get(stat);
    if (ci === undefined) {
      ci = percentileInterval(replicates.subarray(stat * bootstrap, (stat + 1) * bootstrap), confidence);
      intervals.set(stat, ci);
    }
    return { estimate: point[stat] as number, ci };
  };
  const optionalEstimate = (stat: number): Estimate | null => (stat < 0 ? null : estimate(stat));

  const [baseline, shifted] = plan.framings as [string, string];
  const games: GameRobustness[] = plan.units.map((u, i) => {
    const distributions: Record<string, { n: number; distribution: Distribution }> = {};
    const vectors = u.cells.map((c, f) => {
      const pc = plan.cells[c] as (typeof plan.cells)[number];
      const probabilities = pc.actions.map((a) => (pc.cell.counts[a] ?? 0) / pc.n);
      distributions[plan.framings[f] as string] = {
        n: pc.n,
        distribution: Object.fromEntries(pc.actions.map((a, j) => [a, probabilities[j] as number])),
      };
      return probabilities;
    });
    const pairwise: { framings: [string, string]; jsd: number }[] = [];
    for (let f = 0; f < vectors.length; f++) {
      for (let g = f + 1; g < vectors.length; g++) {
        pairwise.push({
          framings: [plan.framings[f] as string, plan.framings[g] as string],
          jsd: jensenShannon(vectors[f] as number[], vectors[g] as number[]),
        });
      }
    }
    const shiftStat = layout.unitShift[i] as number;
    return {
      player: u.player,
      game: u.game,
      unit: u.unit,
      ...rEstimate(layout.unitR[i] as number),
      R2: (({ estimate, ci }) => ({ estimate, ci }))(robustness(layout.unitR2[i] as number)),
      shift:
        shiftStat < 0
          ? null
          : { ...estimate(shiftStat), cooperative_action: u.cooperativeAction as ActionId },
      pairwise_jsd: pairwise,
      distributions,
    };
  });
  const players: PlayerRobustness[] = plan.players.map((p, i) => ({
    player: p.player,
    unit: p.unit,
    cluster_scope: jointPlayers.has(p.player) ? "player" : "cell",
    games: p.units.length,
    ...rEstimate(layout.playerR[i] as number),
    shift: optionalEstimate(layout.playerShift[i] as number),
  }));
  const pooled = {
    games: plan.units.length,
    ...rEstimate(layout.pooledR),
    shift: optionalEstimate(layout.pooledShift),
  };

  const size = { cells: plan.cells.length, decisions: plan.decisions };
  const core = { confidence, games, players, pooled };
  return {
    unit: plan.players.some((p) => p.unit === "session") ? "session" : "decision",
    attenuation,
    bootstrap,
    seed,
    confidence,
    interval_method: INTERVAL_METHOD,
    invariance_method: INVARIANCE_METHOD,
    framings: plan.framings,
    planned_pair: [baseline, shifted],
    cells: size.cells,
    decisions: size.decisions,
    games,
    players,
    pooled,
    checks: robustnessChecks(core, size, options.expected),
    notes: robustnessNotes(core),
  };
}

/** A two-action cell as the inversion sees it: first-action count, size and (nested) sessions. */
function inversionFraming(pc: PlannedCell): InversionFraming {
  const first = pc.actions[0] as ActionId;
  const x = pc.cell.counts[first] ?? 0;
  const clusters = pc.cell.clusters;
  if (pc.unit !== "session" || clusters === undefined) return { x, n: pc.n };
  const sessions = clusters.map((cluster, i) => ({
    x: cluster[first] ?? 0,
    n: Object.values(cluster).reduce((sum, c) => sum + c, 0),
    weight: pc.cell.cluster_weights?.[i] ?? 1,
  }));
  return { x, n: pc.n, sessions: sessions.filter((s) => s.n > 0) };
}
