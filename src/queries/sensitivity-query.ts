import type { CountCell } from "../analysis/count-cells.js";
import {
  type PayoffSensitivityResult,
  payoffSensitivityAnalysis,
  type SensitivityGame,
} from "../analysis/sensitivity/payoff-sensitivity.js";
import type { VariantId } from "../domain/types.js";
import type { PlayDeps } from "../play/play-deps.js";
import { loadStudy } from "../play/studies.js";
import { UsageError } from "../usage-error.js";
import { refuseAbsentPlayersAndGames } from "./absent-filter-values.js";
import { type AskedFrom, filterNames } from "./filter-names.js";
import { confidenceLevel, fixed, interval, printable, table } from "./format.js";
import { oneShotCells } from "./one-shot-cells.js";
import { verificationText } from "./verification-text.js";

export interface SensitivityQuery extends AskedFrom {
  players?: string[];
  games?: string[];
  framings?: string[];
  variant?: VariantId;
  study_id?: string;
  bootstrap?: number;
  seed?: number;
  confidence?: number;
}

export type SensitivityReport = PayoffSensitivityResult & { variant: string; study_id: string | null };

/** The `payoff_sensitivity` tool and `analyze sensitivity`: λ from the record's one-shot counts (SPEC §4). */
export function sensitivityReport(
  deps: PlayDeps,
  query: SensitivityQuery,
  /** The cells of exactly this query's filter, when the caller already read them (the report). */
  given?: readonly CountCell[],
): SensitivityReport {
  const variant = query.variant ?? "base";
  // A mistyped study or game is named, not answered as a record without decisions.
  // (The report passes cells it read for a study it loaded already.)
  if (given === undefined) {
    if (query.study_id !== undefined) loadStudy(deps, query.study_id);
    refuseAbsentPlayersAndGames(
      deps,
      { ...query, variants: [variant] },
      { names: filterNames(query.surface) },
    );
    for (const game of query.games ?? []) deps.catalog.game(game);
  }
  const cells =
    given ??
    oneShotCells(deps.store, {
      players: query.players,
      games: query.games,
      framings: query.framings,
      variants: [variant],
      study_id: query.study_id,
    });
  // No decision at all is its own reason (a player or framing the record does not hold), not the game's.
  if (cells.length === 0) {
    const parts = [
      query.players && `players ${labelWords(query.players)}`,
      query.games && `games ${labelWords(query.games)}`,
      query.framings && `framings ${labelWords(query.framings)}`,
      query.study_id && `study ${printable(query.study_id)}`,
      `variant ${variant}`,
    ].filter(Boolean);
    throw new UsageError(
      `No one-shot decisions match ${parts.join(", ")}; play some trials or import counts first.`,
    );
  }
  const games: Record<string, SensitivityGame> = {};
  for (const id of new Set(cells.map((c) => c.game))) {
    const cooperativeAction = deps.catalog.game(id).cooperativeAction;
    if (cooperativeAction !== null)
      games[id] = { stage: deps.catalog.stageGame(id, variant), cooperativeAction };
  }
  const analysed = cells.filter((c) => games[c.game] !== undefined);
  if (analysed.length === 0) {
    throw new UsageError(
      `No one-shot decisions of a game with a cooperative action match these filters (variant ${variant}); λ needs a cooperate/defect game.`,
    );
  }
  const result = payoffSensitivityAnalysis(analysed, {
    games,
    bootstrap: query.bootstrap,
    seed: query.seed,
    confidence: query.confidence,
  });
  return { ...result, variant, study_id: query.study_id ?? null };
}

export function sensitivityText(report: SensitivityReport): string {
  const pooled = table(
    ["player", "framing", "games", "pooled λ", `${confidenceLevel(report.confidence)} CI`],
    report.pooled.map((p) => [
      p.player,
      p.framing,
      String(p.games),
      fixed(p.lambda?.estimate, 2),
      interval(p.lambda?.ci, 2),
    ]),
  );
  const framings = [...new Set(report.cells.map((c) => c.framing))].sort();
  const perGame = table(
    ["player", "game", "Δu", "V_λ", ...framings.map((f) => `λ̂ ${f}`)],
    report.games.map((g) => [
      g.player,
      g.game,
      fixed(g.delta_u),
      fixed(g.v_lambda, 2),
      ...framings.map((f) => fixed(g.lambda_by_framing[f], 2)),
    ]),
  );
  return [
    `Payoff sensitivity λ (logit response against a belief of ${report.belief}, capped at ${report.lambda_max}; B = ${report.bootstrap}, seed ${report.seed}).`,
    "",
    pooled,
    "",
    perGame,
    ...whyNotEstimated(report),
    "",
    verificationText(report.checks, report.notes),
  ].join("\n");
}

/**
 * Why a "—" stands where λ would: each game's reason once (a three-action game, payoffs all equal, Δu_G = 0),
 * then the pooled rows' — so the text says what the JSON's `reason` fields say, not only dashes.
 */
function whyNotEstimated(report: SensitivityReport): string[] {
  const byGame = new Map<string, string>();
  for (const c of report.cells) if (c.lambda === null && c.reason) byGame.set(c.game, c.reason);
  const pooled = new Map<string, string[]>();
  for (const p of report.pooled) {
    if (p.lambda !== null || !p.reason) continue;
    pooled.set(p.reason, [...(pooled.get(p.reason) ?? []), `${printable(p.player)}/${printable(p.framing)}`]);
  }
  const lines = [
    ...[...byGame]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([game, reason]) => `λ̂ of ${game} not estimated: ${reason}`),
    ...[...pooled].map(([reason, rows]) => `No pooled λ for ${rows.join(", ")}. ${reason}`),
  ];
  return lines.length === 0 ? [] : ["", ...lines];
}

function labelWords(labels: readonly string[]): string {
  return labels.map(printable).join(", ");
}
