import type { ActionId, Distribution } from "../../domain/types.js";
import type { CountCell } from "../count-cells.js";
import {
  deferredUnits,
  fillPermutationRows,
  startPermutationRows,
} from "../invariance/permutation-replicates.js";
import { throwIfCancelled } from "../progress/analysis-cancellation.js";
import { reportProgress } from "../progress/analysis-progress.js";
import { type BootstrapOptions, bootstrapSettings } from "../sampling/bootstrap-options.js";
import { type ClusterSumMethod, clusterSumMethodFromEnv } from "../sampling/normal-cluster-sums.js";
import { decisionResampledNote } from "./decision-resampled-note.js";
import { MEAN_INTERVAL_METHOD } from "./mean-interval.js";
import { MULTI_ACTION_INTERVAL_METHOD } from "./multi-action-interval.js";
import { MULTI_ACTION_INVERSION_METHOD } from "./multi-action-inversion.js";
import {
  type Check,
  type Estimate,
  type Note,
  type PlannedSize,
  robustnessChecks,
  robustnessNotes,
} from "./robustness-checks.js";
import { RobustnessInferences } from "./robustness-inferences.js";
import { INVARIANCE_METHOD, ROBUSTNESS_INTERVAL_METHOD } from "./robustness-interval.js";
import { INVERSION_METHOD } from "./robustness-inversion.js";
import { planRobustness, type ResamplingUnit } from "./robustness-plan.js";
import { bootstrapReplicates, pointEstimates } from "./robustness-replicates.js";
import { gameRows, playerRows, pooledRow } from "./robustness-rows.js";
import { StatisticsEvaluator } from "./robustness-statistics.js";

export interface RobustnessOptions extends BootstrapOptions {
  /** Framings to compare, in order: [0] is the baseline b and [1] the shifted s of the planned pair. */
  readonly framings?: readonly string[];
  /** a ∈ (0, 1]; 1 (the default) reports R and shifts as measured. */
  readonly attenuation?: number;
  /** The cooperative action of every game, or null for games without one (no shift then). */
  readonly cooperativeAction: Readonly<Record<string, ActionId | null>>;
  /**
   * Every action of a game (the catalog's), where known: an action no cell chose is still one the
   * framings could have moved to, so a deterministic agent's game keeps its two (or more) actions.
   */
  readonly actions?: Readonly<Record<string, readonly ActionId[]>>;
  /** The design's size, for the design checks. */
  readonly expected?: PlannedSize;
  /**
   * Where the bootstrap may draw a unit's session sums from their normal approximation: "auto" (units of
   * many sessions, see normal-cluster-sums), "exact" or "normal" everywhere there are sessions. Default:
   * SAME_GAME_CLUSTER_SUMS, else "auto".
   */
  readonly clusterSums?: ClusterSumMethod;
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
  /** "session" when at least one player's decisions were resampled by session (some cell of ≥ 2 sessions). */
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

const INTERVAL_METHOD = `R and R2 of a two-action game (sessions, if any, nested in cells or spanning them): ${INVERSION_METHOD}. R and R2 of games with more actions: ${MULTI_ACTION_INVERSION_METHOD}; where an inversion of more actions cannot place an end: ${MULTI_ACTION_INTERVAL_METHOD}; of two actions: ${ROBUSTNESS_INTERVAL_METHOD}; ${MEAN_INTERVAL_METHOD}; shifts: percentile bootstrap. Percentiles by linear interpolation between order statistics (numpy's default)`;

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
  const plan = planRobustness(cells, options.framings, options.cooperativeAction, options.actions);
  const evaluator = new StatisticsEvaluator(plan, attenuation);
  const point = pointEstimates(plan, evaluator);
  // The invariance test is computed unattenuated (withInvariance says why): its permutation rows, and the
  // observed statistics they are compared with.
  const unattenuated = attenuation === 1 ? evaluator : new StatisticsEvaluator(plan, 1);
  const observed = attenuation === 1 ? point : pointEstimates(plan, unattenuated);
  const clusterSums = options.clusterSums ?? clusterSumMethodFromEnv();

  // The null distribution: the same statistics on framing-permuted data, from a stream of its own,
  // on the second core while this thread draws the bootstrap (permutation-replicates).
  const pendingPermutation = startPermutationRows(
    {
      cells,
      framings: options.framings,
      cooperativeAction: options.cooperativeAction,
      actions: options.actions,
      attenuation: 1,
      seed,
      bootstrap,
      clusterSums,
    },
    evaluator.layout.count,
    plan.units.length,
    (out) => fillPermutationRows(plan, unattenuated, seed, bootstrap, out, clusterSums),
    // Units of the null that can be drawn out of turn are shared with this thread once its bootstrap is
    // done, so that the two threads finish together.
    deferredUnits(plan, unattenuated, bootstrap, clusterSums),
  );
  const { rows, jointPlayers } = bootstrapReplicates(plan, evaluator, seed, bootstrap, clusterSums);
  // A cancelled analysis stops between its long stages as well as inside them (a stage of one large cell
  // reports nothing between its start and end).
  throwIfCancelled();
  const inferences = new RobustnessInferences(
    plan,
    evaluator.layout,
    point,
    rows,
    bootstrap,
    confidence,
    attenuation,
    observed,
  );
  throwIfCancelled();
  inferences.placeLowerEnds();
  const permutationText = `permutation test (${bootstrap.toLocaleString("en-US")} replicates)`;
  reportProgress(permutationText, 0, 1, "run");
  inferences.withPermutations(pendingPermutation.take());
  reportProgress(permutationText, 1, 1, "run");

  const games = gameRows(plan, evaluator.layout, inferences);
  const players = playerRows(plan, evaluator.layout, inferences, jointPlayers);
  const pooled = pooledRow(plan, evaluator.layout, inferences);
  const size = { cells: plan.cells.length, decisions: plan.decisions };
  return {
    unit: plan.players.some((p) => p.unit === "session") ? "session" : "decision",
    attenuation,
    bootstrap,
    seed,
    confidence,
    interval_method: INTERVAL_METHOD,
    invariance_method: INVARIANCE_METHOD,
    framings: plan.framings,
    planned_pair: [plan.framings[0] as string, plan.framings[1] as string],
    cells: size.cells,
    decisions: size.decisions,
    games,
    players,
    pooled,
    checks: robustnessChecks({ confidence, games, players, pooled }, size, options.expected),
    notes: [
      ...robustnessNotes({ confidence, games, players, pooled }, bootstrap, size, options.expected),
      decisionResampledNote(plan),
    ].filter((n): n is Note => n !== null),
  };
}
