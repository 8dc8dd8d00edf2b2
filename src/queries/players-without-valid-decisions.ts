import type { PlayDeps } from "../play/play-deps.js";
import type { RecordFilter } from "../store/records.js";

// A player whose every round was void (no valid reply in five tries), forfeited or is still open has no
// decision an analysis can count, so it drops out of every ranking and robustness table without a word — the
// silence `--players` refuses for a mistyped name. The analyses list such a player, with why, instead.

/** A player with matches in the analysis's scope but no valid decision there. */
export interface PlayerWithoutValidDecisions {
  player: string;
  /** The games of its matches in scope. */
  games: string[];
  /** "void-bot: 2 matches, 0 valid decisions (all void)". */
  reason: string;
}

/**
 * The players of `filter`'s matches (of one-shot or repeated games only, if asked) that hold no valid decision and are
 * not among `analysed`, each with its matches and what became of their rounds, in name order.
 */
export function playersWithoutValidDecisions(
  deps: PlayDeps,
  filter: RecordFilter,
  analysed: ReadonlySet<string>,
  games: "one-shot" | "repeated" | "all" = "all",
): PlayerWithoutValidDecisions[] {
  // Only a player not analysed can be one without a valid decision; when the filter's players (or, without
  // one, the record's) were all analysed — the usual case — their matches need not be read. That read
  // groups every match in scope with its rounds: seconds at a million decisions, for an answer known.
  const candidates = (filter.players ?? deps.store.matchPlayers()).filter((p) => !analysed.has(p));
  if (candidates.length === 0) return [];
  const byPlayer = new Map<
    string,
    { games: string[]; matches: number; decided: number; void: number; forfeit: number; pending: number }
  >();
  for (const row of deps.store.roundStatusByPlayer({ ...filter, players: candidates }, games)) {
    const seen = byPlayer.get(row.player) ?? {
      games: [],
      matches: 0,
      decided: 0,
      void: 0,
      forfeit: 0,
      pending: 0,
    };
    seen.games.push(row.game);
    seen.matches += row.matches;
    seen.decided += row.decided;
    seen.void += row.void;
    seen.forfeit += row.forfeit;
    seen.pending += row.pending;
    byPlayer.set(row.player, seen);
  }
  const without: PlayerWithoutValidDecisions[] = [];
  for (const [player, s] of byPlayer) {
    if (s.decided > 0 || analysed.has(player)) continue;
    const rounds = s.void + s.forfeit + s.pending;
    const parts = [
      s.void > 0 ? `${s.void} void` : "",
      s.forfeit > 0 ? `${s.forfeit} forfeit` : "",
      s.pending > 0 ? `${s.pending} not yet decided` : "",
    ].filter((p) => p !== "");
    const what =
      rounds === 0
        ? "no round played"
        : parts.length === 1
          ? `all ${parts[0]?.replace(/^\d+ /, "")}`
          : parts.join(", ");
    without.push({
      player,
      games: s.games,
      reason: `${player}: ${s.matches} match${s.matches === 1 ? "" : "es"}, 0 valid decisions (${what})`,
    });
  }
  return without.sort((a, b) => (a.player < b.player ? -1 : a.player > b.player ? 1 : 0));
}
