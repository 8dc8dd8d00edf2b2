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
   * The one-shot cells (player, game, variant, framing) of these players that hold live decisions, in no set
   * order: where an import of theirs would mix imported and live decisions in one cell, which no analysis can
   * resample (live play of every principal counts, since imported records are seen by all of them).
   */
  liveOneShotCells(
    players: readonly string[],
  ): { player: string; game: string; variant: string; framing: string }[] {
    if (players.length === 0) return [];
    return this.stmt(
      `SELECT DISTINCT m.player, m.game, m.variant, m.framing FROM decision_tallies m
       WHERE m.one_shot = 1 AND m.source = '' AND m.count > 0 AND ${this.dialect.inJsonList("m.player", "players")}`,
    ).all({ players: JSON.stringify([...new Set(players)]) }) as {
      player: string;
      game: string;
      variant: string;
      framing: string;
    }[];
  }

  /**
   * Deletes everything imported under `source` — its published counts and its transcripts (matches,
   * decisions and their tallies), and the cached analysis results — in one transaction; live play is never
   * touched (a live match has no source). Returns what was removed.
   */
  removeImportedSource(source: string): { count_rows: number; matches: number; decisions: number } {
    return this.transaction(() => {
      const decisions = Number(
        (
          this.stmt(
            "SELECT count(*) AS n FROM decisions WHERE match_id IN (SELECT id FROM matches WHERE source = ?)",
          ).get(source) as { n: number | string }
        ).n,
      );
      const countRows = this.stmt("DELETE FROM imported_counts WHERE source = ?").run(source).changes;
      this.write("DELETE FROM decision_tallies WHERE source = ?", source);
      // An import records no attempts or model calls; deleting them too keeps no row pointing at a removed match.
      this.write(
        "DELETE FROM model_calls WHERE match_id IN (SELECT id FROM matches WHERE source = ?)",
        source,
      );
      this.write("DELETE FROM attempts WHERE match_id IN (SELECT id FROM matches WHERE source = ?)", source);
      this.write("DELETE FROM decisions WHERE match_id IN (SELECT id FROM matches WHERE source = ?)", source);
      const matches = this.stmt("DELETE FROM matches WHERE source = ?").run(source).changes;
      // A cached result of the record before (never served again: the version moves) still holds the
      // removed import's numbers and labels until a new one is stored; it goes now.
      this.write("DELETE FROM analysis_cache");
      return { count_rows: countRows, matches, decisions };
    });
  }

  /** The published counts stored under `source`, as the rows `importCounts` was given (session absent for none). */
  importedCountsOf(source: string): ImportedCountRow[] {
    const rows = this.stmt(
      `SELECT player, session, game, variant, framing, action, count FROM imported_counts WHERE source = ?`,
    ).all(source) as (Omit<ImportedCountRow, "session" | "count"> & {
      session: string;
      count: number | string;
    })[];
    return rows.map(({ session, count, ...row }) => ({
      ...row,
      ...(session === "" ? {} : { session }),
      count: Number(count),
    }));
  }

  /**
   * Stores published counts under `source`, per session where the file gave one, replacing whatever the
   * source held (a corrected, shorter file leaves none of the old rows behind). `import counts` asks for
   * --replace before it replaces different counts.
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
    /** How many sessions the file named (0: aggregate counts, no sessions). */
    sessions: number;
    imported_at: string;
    /** The source's player labels, sorted. */
    players: string[];
  }[] {
    const rows = this.stmt(
      `SELECT source, count(*) AS rows, sum(count) AS decisions, max(imported_at) AS imported_at,
              count(DISTINCT CASE WHEN session <> '' THEN player || '/' || session END) AS sessions,
              ${this.dialect.sortedDistinctJsonArray("p.player", "FROM imported_counts p WHERE p.source = i.source")}
                AS players
       FROM imported_counts i GROUP BY source ORDER BY source`,
    ).all() as {
      source: string;
      rows: number;
      decisions: number | string;
      sessions: number | string;
      imported_at: string;
      players: string;
    }[];
    return rows.map((row) => ({
      ...row,
      decisions: Number(row.decisions),
      sessions: Number(row.sessions),
      players: JSON.parse(row.players) as string[],
    }));
  }

  /** The sources of imported match transcripts with their matches and decisions, for the report's provenance. */
  importedMatchSources(): { source: string; matches: number; decisions: number; players: string[] }[] {
    const rows = this.stmt(
      `SELECT m.source AS source, count(DISTINCT m.id) AS matches,
              (SELECT count(*) FROM decisions d JOIN matches dm ON dm.id = d.match_id WHERE dm.source = m.source)
                AS decisions,
              ${this.dialect.sortedDistinctJsonArray("p.player", "FROM matches p WHERE p.source = m.source")}
                AS players
       FROM matches m WHERE m.source IS NOT NULL GROUP BY m.source ORDER BY m.source`,
    ).all() as { source: string; matches: number | string; decisions: number | string; players: string }[];
    return rows.map((row) => ({
      source: row.source,
      matches: Number(row.matches),
      decisions: Number(row.decisions),
      players: JSON.parse(row.players) as string[],
    }));
  }
}
