import type { ImportedCountRow } from "../records.js";
import { requireWellFormedText } from "../well-formed-text.js";
import { DecisionStore } from "./decision-store.js";

/** Published counts and matches imported from elsewhere, by their source label. */
export class ImportStore extends DecisionStore {
  /** How many matches were imported under this source label. */
  countImportedMatches(source: string): number {
    const row = this.stmt("SELECT count(*) AS n FROM matches WHERE source = ?").get(source) as { n: number };
    return row.n;
  }

  /**
   * Stores published counts under `source`, per session where the file gave one; importing the same
   * source again replaces it whole (a corrected, shorter file leaves none of the old rows behind).
   */
  importCounts(source: string, rows: readonly ImportedCountRow[], at: string): void {
    const remove = this.stmt("DELETE FROM imported_counts WHERE source = ?");
    const insert = this.stmt(
      `INSERT INTO imported_counts (source, player, session, game, variant, framing, action, count, imported_at)
       VALUES (@source, @player, @session, @game, @variant, @framing, @action, @count, @imported_at)`,
    );
    this.transaction(() => {
      remove.run(source);
      for (const row of rows) {
        // Refused on both engines alike, so a record holds the same text wherever it is moved.
        requireWellFormedText(
          { ...row, source },
          {
            source: "source label",
            player: "player label",
            session: "session label",
            framing: "framing label",
            action: "action",
          },
        );
        // '' stands for "no session" (the key has no NULLs, as in decision_tallies).
        insert.run({ ...row, session: row.session ?? "", source, imported_at: at });
      }
    });
  }

  /** The sources of imported counts with their rows and decisions, for the report's provenance. */
  importedCountSources(): {
    source: string;
    rows: number;
    decisions: number;
    imported_at: string;
    /** The source's player labels, sorted. */
    players: string[];
  }[] {
    const rows = this.stmt(
      `SELECT source, count(*) AS rows, sum(count) AS decisions, max(imported_at) AS imported_at,
              ${this.dialect.sortedDistinctJsonArray("p.player", "FROM imported_counts p WHERE p.source = i.source")}
                AS players
       FROM imported_counts i GROUP BY source ORDER BY source`,
    ).all() as { source: string; rows: number; decisions: number; imported_at: string; players: string }[];
    return rows.map((row) => ({ ...row, players: JSON.parse(row.players) as string[] }));
  }
}
