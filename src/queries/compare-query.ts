import {
  type ComparisonMeasure,
  type ComparisonResult,
  compareGroups,
  NoSharedCells,
} from "../analysis/comparison/compare-groups.js";
import type { ComparisonRow } from "../analysis/comparison/comparison-rows.js";
import type { PooledModel } from "../analysis/comparison/pooled-measures.js";
import { equilibriumDeviation } from "../analysis/equilibrium/deviation.js";
import { payoffDifference } from "../analysis/sensitivity/payoff-sensitivity.js";
import type { VariantId } from "../domain/types.js";
import type { PlayDeps } from "../play/play-deps.js";
import { loadStudy } from "../play/studies.js";
import type { ComparisonFactor } from "../store/store.js";
import { UsageError } from "../usage-error.js";

export interface CompareQuery {
  /** What a group is (default: the player). */
  by?: ComparisonFactor;
  players?: string[];
  games?: string[];
  /** Order matters: [0] is the baseline and [1] the comparison of the shift. Default: the study's first
   * planned contrast, else the framings every group played, sorted. */
  framings?: string[];
  variant?: VariantId;
  study_id?: string;
  bootstrap?: number;
  seed?: number;
  confidence?: number;
}

export type CompareReport = ComparisonResult & {
  by: ComparisonFactor;
  variant: string;
  study_id: string | null;
  /** The measures of the contract this comparison does not give, and why. */
  skipped: { measure: ComparisonMeasure; reason: string }[];
};

/** Why the repeated-play measures are left out (the contract lists them in `skipped`). */
const NOT_COMPARED: Record<"points" | "cooperation" | "comprehension_m", string> = {
  points:
    "Repeated-play measures are not compared yet; `analyze repeated` gives each player's points with their spread.",
  cooperation:
    "Repeated-play measures are not compared yet; `analyze repeated` gives each player's cooperation rate.",
  comprehension_m:
    "Repeated-play measures are not compared yet; `analyze repeated` gives each player's comprehension m.",
};

/**
 * The `compare` tool and `analyze compare`: the record's one-shot decisions counted by the chosen factor
 * (SQL GROUP BY), then the pure comparison. Every pair is compared on the cells both played; a pair that
 * shares none is refused, naming both groups and what each played.
 */
export function compareReport(deps: PlayDeps, query: CompareQuery): CompareReport {
  const by = query.by ?? "player";
  const variant = query.variant ?? "base";
  const study = query.study_id ? loadStudy(deps, query.study_id) : null;
  const rows: ComparisonRow[] = deps.store.comparisonCounts(
    { players: query.players, games: query.games, variants: [variant], study_id: query.study_id },
    by,
  );
  if (rows.length === 0) {
    throw new UsageError(
      `No one-shot decisions with a recorded ${by} match ${describeFilter(query, variant)}; play some trials or import counts first.`,
    );
  }
  const framings = query.framings ?? defaultFramings(rows, study?.design.planned_contrasts[0]);
  const known = new Set(rows.map((r) => r.framing));
  const unknown = framings.filter((f) => !known.has(f));
  if (unknown.length > 0) {
    throw new UsageError(
      `--framings names ${unknown.join(", ")}, under which nothing matching was played; framings with decisions: ${[...known].sort().join(", ")}.`,
    );
  }
  if (framings.length < 2 || new Set(framings).size !== framings.length) {
    throw new UsageError(
      `compare needs at least two distinct framings every group played; ${query.framings ? `--framings gave ${framings.join(", ") || "none"}` : `the groups share ${framings.join(", ") || "none"}`} (framings with decisions: ${[...known].sort().join(", ")}).`,
    );
  }
  const games = [...new Set(rows.map((r) => r.game))];
  for (const g of games) deps.catalog.game(g);
  let result: ComparisonResult;
  try {
    result = compareGroups(rows, {
      framings,
      actionsOf: (g) => deps.catalog.game(g).actions,
      cooperativeAction: (g) => {
        const game = deps.catalog.game(g);
        return game.actions.length === 2 ? game.cooperativeAction : null;
      },
      pooled: pooledModel(deps, variant),
      bootstrap: query.bootstrap,
      seed: query.seed,
      confidence: query.confidence,
    });
  } catch (error) {
    if (error instanceof NoSharedCells) throw new UsageError(error.message);
    throw error;
  }
  const skipped: CompareReport["skipped"] = [];
  if (!result.pairs.some((p) => p.measure === "shift")) {
    skipped.push({
      measure: "shift",
      reason: "No shared game has two actions and a cooperative one, so no pair has a planned shift.",
    });
  }
  skipped.push(...result.skipped);
  for (const [measure, reason] of Object.entries(NOT_COMPARED)) {
    skipped.push({ measure: measure as ComparisonMeasure, reason });
  }
  return { by, variant, study_id: query.study_id ?? null, ...result, skipped };
}

/** λ's Δu_G and each distribution's exploitability, from the catalog's stage games of the variant. */
function pooledModel(deps: PlayDeps, variant: VariantId): PooledModel {
  const stage = (g: string) => deps.catalog.stageGame(g, variant);
  return {
    deltaU: (g) => {
      const cooperativeAction = deps.catalog.game(g).cooperativeAction;
      if (cooperativeAction === null) return null;
      return payoffDifference(g, { stage: stage(g), cooperativeAction }).delta_u;
    },
    cooperative: (g) => {
      const game = deps.catalog.game(g);
      return game.cooperativeAction === null ? -1 : game.actions.indexOf(game.cooperativeAction);
    },
    exploitability: (g, distribution) => {
      const game = stage(g);
      const named = Object.fromEntries(game.actions.map((a, i) => [a, distribution[i] as number]));
      return equilibriumDeviation(game, named).exploitability.normalized;
    },
  };
}

/** The study's planned pair, else every framing each group played (sorted). */
function defaultFramings(
  rows: readonly ComparisonRow[],
  planned: { baseline: string; comparison: string } | undefined,
): string[] {
  if (planned) return [planned.baseline, planned.comparison];
  const byGroup = new Map<string, Set<string>>();
  for (const r of rows) byGroup.set(r.group, (byGroup.get(r.group) ?? new Set()).add(r.framing));
  const sets = [...byGroup.values()];
  return [...(sets[0] ?? [])].filter((f) => sets.every((s) => s.has(f))).sort();
}

function describeFilter(query: CompareQuery, variant: string): string {
  const parts = [
    query.players && `players ${query.players.join(", ")}`,
    query.games && `games ${query.games.join(", ")}`,
    query.study_id && `study ${query.study_id}`,
    `variant ${variant}`,
  ].filter(Boolean);
  return parts.join(", ");
}
