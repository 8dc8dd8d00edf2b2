import type { PlayDeps } from "../play/play-deps.js";
import { labelList } from "../report/label-list.js";
import { UsageError } from "../usage-error.js";
import { type FilterNames, filterNames } from "./filter-names.js";

// A filter list selects by exact name and drops what matches nothing: a mistyped model or game would
// silently leave the analysis (a ranking of the others, a leaderboard one player short) or surface later as
// "nothing to compare". Each value must name something of the analysis's scope, and the refusal names the
// valid ones.

/**
 * Refuses framings the caller named under which no decision of the analysis's scope was made: a typo there
 * would otherwise surface later as "nothing to compare", or as a whole report whose sections say only that
 * they could not run. `present` is every framing with decisions in that scope; `framingsName`, what the
 * caller's surface calls the framings (the CLI's `--framings`, a tool's `framings`).
 */
export function refuseAbsentFramings(
  asked: readonly string[],
  present: ReadonlySet<string>,
  framingsName: string = filterNames("cli").framings,
): void {
  const absent = asked.filter((f) => !present.has(f));
  if (absent.length === 0) return;
  throw new UsageError(
    `${framingsName} names ${labelList(absent)}, under which nothing matching was played; framings with decisions: ${labelList([...present].sort())}.`,
  );
}

/** The player and game filters of an analysis, with the scope the games are looked for in. */
export interface PlayerGameFilter {
  readonly players?: readonly string[];
  readonly games?: readonly string[];
  readonly variants?: readonly string[];
  readonly study_id?: string;
}

/**
 * Refuses a player the record (or the study) holds nothing of, then a game the selected players did not play
 * (under the variants analysed), naming the valid ones. A record with nothing in scope at all is left to the
 * analysis, whose own sentence says to play or import first. `names` are what the caller's surface calls
 * the filters (the CLI's flags, a tool's arguments; `player` for a tool that takes one); `analysable`, the
 * games the analysis reads at all (repeated play's metrics: the repeated games), the others are never
 * offered as valid.
 */
export function refuseAbsentPlayersAndGames(
  deps: PlayDeps,
  filter: PlayerGameFilter,
  {
    names = filterNames("cli"),
    analysable,
  }: { names?: Pick<FilterNames, "players" | "games">; analysable?: (game: string) => boolean } = {},
): void {
  if (!filter.players?.length && !filter.games?.length) return;
  const recorded = deps.store.recordedPlayerGames(filter.study_id);
  const where = filter.study_id === undefined ? "the record" : `study ${filter.study_id}`;
  const players = new Set(recorded.map((r) => r.player));
  const unknownPlayers = filter.players?.filter((p) => !players.has(p)) ?? [];
  if (unknownPlayers.length > 0 && players.size > 0) {
    throw new UsageError(
      `${names.players} names ${labelList(unknownPlayers)}, who played nothing in ${where}; players of ${where}: ${labelList([...players].sort())}.`,
    );
  }
  if (!filter.games?.length) return;
  const selected = recorded.filter(
    (r) =>
      (!filter.players?.length || filter.players.includes(r.player)) &&
      (!filter.variants?.length || filter.variants.includes(r.variant)) &&
      (analysable === undefined || analysable(r.game)),
  );
  const played = new Set(selected.map((r) => r.game));
  if (played.size === 0) {
    // Nothing played in scope: a name that is no game at all gets the catalog's own refusal; the analysis
    // says the rest (play or import first).
    for (const game of filter.games) deps.catalog.game(game);
    return;
  }
  const absent = filter.games.filter((g) => !played.has(g));
  if (absent.length === 0) return;
  const catalogued = new Set(deps.catalog.games.map((g) => g.id));
  const named = absent.map((g) =>
    catalogued.has(g) ? labelList([g]) : `${labelList([g])} (no game of the catalog)`,
  );
  const scope = [
    filter.players?.length ? `by ${labelList(filter.players)}` : "",
    filter.study_id === undefined ? (filter.players?.length ? "" : "in the record") : `in ${where}`,
    filter.variants?.length ? `(variant ${labelList(filter.variants)})` : "",
  ]
    .filter((part) => part !== "")
    .join(" ");
  throw new UsageError(
    `${names.games} names ${named.join(", ")}, not played ${scope}; games played: ${labelList([...played].sort())}.`,
  );
}
