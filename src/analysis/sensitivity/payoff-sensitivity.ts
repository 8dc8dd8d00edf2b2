import { byText } from "../../domain/text-order.js";
import type { ActionId, StageGame } from "../../domain/types.js";
import { type CountCell, cellLabel, validateCell } from "../count-cells.js";
import { reportProgress } from "../progress/analysis-progress.js";
import type { Check, Estimate, Note } from "../robustness/robustness-checks.js";
import { createBinomialSampler, drawBinomial } from "../sampling/binomial-sampler.js";
import { type BootstrapOptions, bootstrapSettings } from "../sampling/bootstrap-options.js";
import { bootstrapRate } from "../sampling/boundary-smoothing.js";
import { createBootstrapRng } from "../sampling/fast-rng.js";
import { percentileInterval } from "../sampling/percentile.js";
import { fitPooledLambda, LAMBDA_MAX, type LogitObservation } from "./logit-response-mle.js";

/** The neutral belief about the other player's cooperation used by Δu_G (SPEC §4). */
export const NEUTRAL_BELIEF = 0.5;

export interface SensitivityGame {
  readonly stage: StageGame;
  readonly cooperativeAction: ActionId;
}

export interface PayoffSensitivityOptions extends BootstrapOptions {
  readonly games: Readonly<Record<string, SensitivityGame>>;
}

/** Δu_G, or null with the reason it is undefined. */
export type PayoffDifference =
  | { readonly delta_u: number }
  | { readonly delta_u: null; readonly reason: string };

/**
 * Δu_G = (ū(C; q) − ū(D; q)) / (max u1 − min u1) with ū(a; q) = q·u1(a, C) + (1 − q)·u1(a, D), q = ½:
 * the row player's expected gain from cooperating against a neutral belief, in units of the payoff range.
 */
export function payoffDifference(
  game: string,
  { stage, cooperativeAction }: SensitivityGame,
): PayoffDifference {
  const c = stage.actions.indexOf(cooperativeAction);
  if (c < 0) {
    throw new Error(
      `Cooperative action '${cooperativeAction}' is not an action of game '${game}'; its actions are: ${stage.actions.join(", ")}.`,
    );
  }
  if (stage.actions.length !== 2) {
    return {
      delta_u: null,
      reason: `λ needs a two-action game; '${game}' has ${stage.actions.length} actions.`,
    };
  }
  const d = 1 - c;
  const u = (own: number, other: number): number => (stage.u1[own] as readonly number[])[other] as number;
  const payoffs = stage.u1.flat();
  const range = Math.max(...payoffs) - Math.min(...payoffs);
  if (range === 0)
    return { delta_u: null, reason: `Every payoff of '${game}' is the same, so Δu_G is undefined.` };
  const q = NEUTRAL_BELIEF;
  const expected = (own: number): number => q * u(own, c) + (1 - q) * u(own, d);
  return { delta_u: (expected(c) - expected(d)) / range };
}

/**
 * λ̂ = clamp(logit(p̃) / Δu_G, 0, 20) with p̃ = (x + 0.5)/(n + 1). Null (with a reason) when Δu_G is
 * undefined or 0: cooperating and defecting then pay the same against the neutral belief, so no choice
 * frequency says anything about payoff sensitivity.
 */
export function cellLambda(
  cooperative: number,
  n: number,
  delta: PayoffDifference,
): { lambda: number | null; p_smoothed: number; reason?: string } {
  const pSmoothed = (cooperative + 0.5) / (n + 1);
  if (delta.delta_u === null) return { lambda: null, p_smoothed: pSmoothed, reason: delta.reason };
  if (delta.delta_u === 0) {
    return {
      lambda: null,
      p_smoothed: pSmoothed,
      reason: "Δu_G = 0: both actions pay the same against a neutral belief, so λ is not identified.",
    };
  }
  const logit = Math.log(pSmoothed / (1 - pSmoothed));
  return { lambda: Math.min(LAMBDA_MAX, Math.max(0, logit / delta.delta_u)), p_smoothed: pSmoothed };
}

/** Population variance (divide by the count); null for no values. */
function populationVariance(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
}

export interface SensitivityCell {
  readonly player: string;
  readonly game: string;
  readonly framing: string;
  readonly n: number;
  readonly cooperative: number;
  readonly p_smoothed: number;
  readonly delta_u: number | null;
  readonly lambda: number | null;
  readonly reason?: string;
}

export interface PayoffSensitivityResult {
  readonly bootstrap: number;
  readonly seed: number;
  readonly confidence: number;
  readonly belief: number;
  readonly lambda_max: number;
  readonly cells: readonly SensitivityCell[];
  /** Per (player, game): λ̂ by framing and V_λ, their population variance over framings. */
  readonly games: readonly {
    readonly player: string;
    readonly game: string;
    readonly delta_u: number | null;
    readonly lambda_by_framing: Readonly<Record<string, number | null>>;
    readonly v_lambda: number | null;
  }[];
  /** Per (player, framing): the maximum-likelihood λ across that player's games, with its interval. */
  readonly pooled: readonly {
    readonly player: string;
    readonly framing: string;
    readonly games: number;
    readonly lambda: Estimate | null;
    readonly reason?: string;
  }[];
  /** Per player: V_λ of the pooled λ over framings. */
  readonly players: readonly { readonly player: string; readonly v_lambda_pooled: number | null }[];
  readonly checks: readonly Check[];
  readonly notes: readonly Note[];
}

/**
 * Payoff sensitivity (SPEC §4): the closed-form λ̂ of every cell, V_λ over framings per (player, game),
 * the pooled maximum-likelihood λ per (player, framing) with a percentile-bootstrap interval (each cell's
 * cooperative count redrawn as Binomial(n, x/n), seeded; from (x + ½)/(n + 1) where x is 0 or n), and V_λ of the pooled λ over framings.
 */
export function payoffSensitivityAnalysis(
  cells: readonly CountCell[],
  options: PayoffSensitivityOptions,
): PayoffSensitivityResult {
  const { bootstrap, seed, confidence } = bootstrapSettings(options);
  const deltas = new Map<string, PayoffDifference>();
  const sorted = [...cells].sort(
    (a, b) => byText(a.player, b.player) || byText(a.game, b.game) || byText(a.framing, b.framing),
  );
  const analysed: SensitivityCell[] = sorted.map((cell) => {
    const game = options.games[cell.game];
    if (game === undefined) {
      throw new Error(
        `Game '${cell.game}' of cell ${cellLabel(cell)} has no stage game; known games: ${Object.keys(options.games).join(", ")}.`,
      );
    }
    const n = validateCell(cell);
    for (const action of Object.keys(cell.counts)) {
      if (!game.stage.actions.includes(action)) {
        throw new Error(
          `Action '${action}' in cell ${cellLabel(cell)} is not an action of game '${cell.game}'; its actions are: ${game.stage.actions.join(", ")}.`,
        );
      }
    }
    let delta = deltas.get(cell.game);
    if (delta === undefined) {
      delta = payoffDifference(cell.game, game);
      deltas.set(cell.game, delta);
    }
    const cooperative = cell.counts[game.cooperativeAction] ?? 0;
    const { lambda, p_smoothed, reason } = cellLambda(cooperative, n, delta);
    return {
      player: cell.player,
      game: cell.game,
      framing: cell.framing,
      n,
      cooperative,
      p_smoothed,
      delta_u: delta.delta_u,
      lambda,
      ...(reason === undefined ? {} : { reason }),
    };
  });

  const groupBy = (key: (c: SensitivityCell) => string): Map<string, SensitivityCell[]> => {
    const groups = new Map<string, SensitivityCell[]>();
    for (const c of analysed) groups.set(key(c), [...(groups.get(key(c)) ?? []), c]);
    return groups;
  };

  const games = [...groupBy((c) => `${c.player}\u0000${c.game}`).values()].map((group) => {
    const first = group[0] as SensitivityCell;
    const lambdas = group.flatMap((c) => (c.lambda === null ? [] : [c.lambda]));
    return {
      player: first.player,
      game: first.game,
      delta_u: first.delta_u,
      lambda_by_framing: Object.fromEntries(group.map((c) => [c.framing, c.lambda])),
      v_lambda: populationVariance(lambdas),
    };
  });

  const rng = createBootstrapRng(seed);
  // Each (player, framing) is B fits of its pooled λ: seconds in all at 100,000 decisions, so each is a
  // step of the progress a host shows (and where a cancelled analysis stops).
  const byFraming = [...groupBy((c) => `${c.player}\u0000${c.framing}`).values()];
  const stage = `bootstrap of the pooled λ (${bootstrap.toLocaleString("en-US")} replicates)`;
  const pooled = byFraming.map((group, done) => {
    reportProgress(stage, done, byFraming.length, "player and framing");
    const first = group[0] as SensitivityCell;
    const informative = group.filter((c) => c.delta_u !== null && c.delta_u !== 0);
    const observations: LogitObservation[] = informative.map((c) => ({
      cooperative: c.cooperative,
      n: c.n,
      deltaU: c.delta_u as number,
    }));
    const estimate = fitPooledLambda(observations);
    const head = { player: first.player, framing: first.framing, games: informative.length };
    if (estimate === null) {
      return { ...head, lambda: null, reason: "No game of this player and framing has a non-zero Δu_G." };
    }
    const samplers = observations.map((o) => createBinomialSampler(o.n, bootstrapRate(o.cooperative, o.n)));
    const replicates = new Float64Array(bootstrap);
    // A replicate's λ depends only on its vector of cooperative counts, and small cells repeat vectors
    // often: each distinct vector is fitted once (the same fit of the same numbers, so the same λ). The
    // vector is one number in mixed radix (n_g + 1) while that stays exact; else every replicate is fitted.
    const radix = observations.reduce((product, o) => product * (o.n + 1), 1);
    const fitted = radix <= Number.MAX_SAFE_INTEGER ? new Map<number, number>() : null;
    const resampled = observations.map((o) => ({ ...o }));
    for (let r = 0; r < bootstrap; r++) {
      let key = 0;
      for (let g = 0; g < resampled.length; g++) {
        const o = resampled[g] as (typeof resampled)[number];
        o.cooperative = drawBinomial(samplers[g] as (typeof samplers)[number], rng);
        key = key * (o.n + 1) + o.cooperative;
      }
      let lambda = fitted?.get(key);
      if (lambda === undefined) {
        lambda = fitPooledLambda(resampled) as number;
        fitted?.set(key, lambda);
      }
      replicates[r] = lambda;
    }
    return { ...head, lambda: { estimate, ci: percentileInterval(replicates, confidence) } };
  });
  reportProgress(stage, byFraming.length, byFraming.length, "player and framing");

  const players = [...new Set(analysed.map((c) => c.player))].map((player) => ({
    player,
    v_lambda_pooled: populationVariance(
      pooled.flatMap((p) => (p.player === player && p.lambda !== null ? [p.lambda.estimate] : [])),
    ),
  }));

  return {
    bootstrap,
    seed,
    confidence,
    belief: NEUTRAL_BELIEF,
    lambda_max: LAMBDA_MAX,
    cells: analysed,
    games,
    pooled,
    players,
    checks: sensitivityChecks(analysed, pooled, bootstrap),
    notes: sensitivityNotes(pooled, bootstrap),
  };
}

type PooledLambda = { readonly label: string } & Estimate;

const pooledIntervals = (pooled: PayoffSensitivityResult["pooled"]): PooledLambda[] =>
  pooled.flatMap((p) => (p.lambda === null ? [] : [{ label: `${p.player}/${p.framing}`, ...p.lambda }]));

const onBound = (x: number): boolean => x === 0 || x === LAMBDA_MAX;

/**
 * Below this many replicates a percentile interval is about the range of the draws, and an estimate at the
 * median of the bootstrap distribution falls outside the range of B draws with probability 2·2^−B (6% at
 * B = 5) on healthy data: sampling alone, not a fault. From 20 on that chance is under 2 in a million.
 */
const FEWEST_REPLICATES_TO_CHECK = 20;

/** Intervals that leave their estimate out where that says nothing: on a bound, or with too few replicates. */
const excludedAsExpected = (i: PooledLambda, bootstrap: number): boolean =>
  excludes(i) && (onBound(i.estimate) || bootstrap < FEWEST_REPLICATES_TO_CHECK);
const excludes = (i: PooledLambda): boolean => !(i.ci[0] <= i.estimate && i.estimate <= i.ci[1]);

function sensitivityChecks(
  cells: readonly SensitivityCell[],
  pooled: PayoffSensitivityResult["pooled"],
  bootstrap: number,
): Check[] {
  const intervals = pooledIntervals(pooled);
  const values = [
    ...cells.flatMap((c) =>
      c.lambda === null ? [] : [{ label: `λ̂ of ${c.player}/${c.game}/${c.framing}`, v: c.lambda }],
    ),
    ...intervals.flatMap((i) => [i.estimate, ...i.ci].map((v) => ({ label: `pooled λ of ${i.label}`, v }))),
  ];
  const outside = values.filter(({ v }) => !(v >= 0 && v <= LAMBDA_MAX));
  const reversed = intervals.filter((i) => !(i.ci[0] <= i.ci[1]));
  // An estimate on the bound 0 or the cap can legitimately sit outside a percentile interval (resampling
  // can only move it inward), and so can any estimate when the replicates are too few: that is a note.
  // Otherwise excluding the estimate is a failure.
  const excluded = intervals.filter((i) => excludes(i) && !excludedAsExpected(i, bootstrap));
  return [
    {
      name: "lambda_in_range",
      ok: outside.length === 0,
      detail:
        values.length === 0
          ? "No λ was estimated, so none to check (the cells' reasons say why)."
          : outside.length === 0
            ? `All ${values.length} λ values lie in [0, ${LAMBDA_MAX}].`
            : `Outside [0, ${LAMBDA_MAX}]: ${outside.map((o) => `${o.label} = ${o.v}`).join("; ")}.`,
    },
    {
      name: "ci_ordered",
      ok: reversed.length === 0,
      detail:
        reversed.length === 0
          ? `All ${intervals.length} intervals have lower ≤ upper.`
          : `Reversed: ${reversed.map((i) => `${i.label} [${i.ci.join(", ")}]`).join("; ")}.`,
    },
    {
      name: "ci_contains_estimate",
      ok: excluded.length === 0,
      detail:
        excluded.length === 0
          ? `All ${intervals.length} intervals contain their estimates.`
          : `${excluded.map((i) => `pooled λ of ${i.label} = ${i.estimate} lies outside its percentile interval [${i.ci.join(", ")}]`).join("; ")}; the interval is reported as computed, not widened.`,
    },
  ];
}

/**
 * Pooled λ estimates that their percentile interval leaves out where that is no fault: on the bound 0 or
 * the cap, or with fewer replicates than the check needs.
 */
function sensitivityNotes(pooled: PayoffSensitivityResult["pooled"], bootstrap: number): Note[] {
  const outside = pooledIntervals(pooled).filter((i) => excludedAsExpected(i, bootstrap));
  const onTheBound = outside.filter((i) => onBound(i.estimate));
  const tooFew = outside.filter((i) => !onBound(i.estimate));
  const notes: Note[] = [];
  if (onTheBound.length > 0)
    notes.push({
      name: "lambda_on_bound",
      detail: `${onTheBound.map((i) => `pooled λ of ${i.label} = ${i.estimate} sits on the bound, outside its percentile interval [${i.ci.join(", ")}]`).join("; ")}: resampling can only move an estimate on the bound inward; the interval is reported as computed.`,
    });
  if (tooFew.length > 0)
    notes.push({
      name: "too_few_replicates",
      detail: `${tooFew.map((i) => `pooled λ of ${i.label} = ${i.estimate} lies outside its percentile interval [${i.ci.join(", ")}]`).join("; ")}: with ${bootstrap} bootstrap replicate${bootstrap === 1 ? "" : "s"} the interval is about the range of the draws, which leaves out even a typical estimate by chance (probability 2·2^−B), so it is not checked; ask for ${FEWEST_REPLICATES_TO_CHECK} or more (bootstrap, 10000 by default).`,
    });
  return notes;
}
