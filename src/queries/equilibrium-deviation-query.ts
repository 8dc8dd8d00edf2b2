import {
  type CounterfactualDeviation,
  counterfactualDeviation,
  type EquilibriumDeviation,
  equilibriumDeviation,
} from "../analysis/equilibrium/deviation.js";
import type { ActionCounts, Distribution } from "../domain/types.js";
import { type Equilibrium, nashEquilibria } from "../game-theory/equilibria.js";
import type { PlayDeps } from "../play/play-deps.js";
import { loadStudy } from "../play/studies.js";
import type { CellActionCountRow } from "../store/aggregates/analysis-reads.js";
import { refuseAbsentPlayersAndGames } from "./absent-filter-values.js";

// The equilibrium view of play (SPEC §5): each cell's empirical distribution — valid decisions
// of one-shot and repeated matches, live and imported — beside the stage game's equilibria.

export interface EquilibriumDeviationQuery {
  player?: string;
  game: string;
  variant?: string;
  framing?: string;
  study_id?: string;
}

interface CellKey {
  player: string;
  game: string;
  variant: string;
  framing: string;
}

export interface CellDeviation extends CellKey {
  /** Valid decisions in the cell. */
  decisions: number;
  counts: ActionCounts;
  distribution: Distribution;
  /** Every Nash equilibrium of the variant's stage game. */
  equilibria: Equilibrium[];
  deviation: EquilibriumDeviation;
  /**
   * Payoff and joint counterfactuals: the same distribution against the base game's equilibria too;
   * `template_persistence` when play sits nearer the base game's. Null for base and label variants.
   */
  base_game: Omit<CounterfactualDeviation, "variant"> | null;
}

/** Variants whose payoffs differ from the base game's (SPEC §1: payoff and joint counterfactuals). */
const PAYOFF_COUNTERFACTUALS = ["payoff", "joint"];

/**
 * `rows`, when given, are the game's rows of `cellActionCounts` under the query's filter, in its order: a
 * caller that needs several games reads them in one pass (each read of its own scans every tally).
 */
export function equilibriumDeviationByCell(
  deps: PlayDeps,
  query: EquilibriumDeviationQuery,
  rows?: readonly CellActionCountRow[],
): CellDeviation[] {
  const game = deps.catalog.game(query.game);
  if (query.variant !== undefined) deps.catalog.variant(game.id, query.variant);
  // A mistyped study is named, not answered as a record without decisions.
  if (query.study_id !== undefined && rows === undefined) loadStudy(deps, query.study_id);
  if (query.player !== undefined && rows === undefined)
    refuseAbsentPlayersAndGames(
      deps,
      { players: [query.player], study_id: query.study_id },
      { names: { players: "player", games: "game" } },
    );
  const cells = new Map<string, { key: CellKey; counts: ActionCounts }>();
  for (const row of rows ??
    deps.store.cellActionCounts({
      players: query.player === undefined ? undefined : [query.player],
      games: [game.id],
      variants: query.variant === undefined ? undefined : [query.variant],
      framings: query.framing === undefined ? undefined : [query.framing],
      study_id: query.study_id,
    })) {
    const id = JSON.stringify([row.player, row.variant, row.framing]);
    const cell = cells.get(id) ?? {
      key: { player: row.player, game: row.game, variant: row.variant, framing: row.framing },
      counts: Object.fromEntries(game.actions.map((a) => [a, 0])),
    };
    cell.counts[row.action] = row.count;
    cells.set(id, cell);
  }
  return [...cells.values()].map(({ key, counts }) => {
    const stage = deps.catalog.stageGame(game.id, key.variant);
    const n = Object.values(counts).reduce((a, b) => a + b, 0);
    const distribution = Object.fromEntries(game.actions.map((a) => [a, (counts[a] ?? 0) / n]));
    const against = PAYOFF_COUNTERFACTUALS.includes(key.variant)
      ? counterfactualDeviation(stage, deps.catalog.stageGame(game.id, "base"), distribution)
      : null;
    return {
      ...key,
      decisions: n,
      counts,
      distribution,
      equilibria: [...nashEquilibria(stage).equilibria],
      deviation: against?.variant ?? equilibriumDeviation(stage, distribution),
      base_game: against && { base: against.base, template_persistence: against.template_persistence },
    };
  });
}
