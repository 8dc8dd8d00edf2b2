import type { CountCell } from "../analysis/count-cells.js";
import type { ActionCounts } from "../domain/types.js";
import type { CellCountRow } from "../store/records.js";
import { UsageError } from "../usage-error.js";

interface CellBuilder {
  player: string;
  game: string;
  framing: string;
  counts: ActionCounts;
  /** Per-session counts of live cells; null for imported counts (decisions without a session). */
  sessions: Map<string, ActionCounts> | null;
}

/**
 * Folds the store's GROUP BY rows (one per cell × action × session) into analysis cells. Live cells keep
 * their per-session split as clusters, so the bootstrap can resample whole MCP sessions; imported
 * published counts have none. A cell may not mix both: its resampling unit would be undefined.
 */
export function cellsFromRows(rows: readonly CellCountRow[]): CountCell[] {
  const cells = new Map<string, CellBuilder>();
  for (const row of rows) {
    const key = JSON.stringify([row.player, row.game, row.framing]);
    const imported = row.session_id === null;
    let cell = cells.get(key);
    if (!cell) {
      cell = {
        player: row.player,
        game: row.game,
        framing: row.framing,
        counts: {},
        sessions: imported ? null : new Map(),
      };
      cells.set(key, cell);
    }
    if (imported !== (cell.sessions === null)) {
      throw new UsageError(
        `Player "${row.player}" has both live and imported decisions for ${row.game} / ${row.framing}; import the published counts under another player label.`,
      );
    }
    cell.counts[row.action] = (cell.counts[row.action] ?? 0) + row.count;
    if (cell.sessions && row.session_id !== null) {
      const cluster = cell.sessions.get(row.session_id) ?? {};
      cluster[row.action] = (cluster[row.action] ?? 0) + row.count;
      cell.sessions.set(row.session_id, cluster);
    }
  }
  return [...cells.values()].map(({ player, game, framing, counts, sessions }) =>
    sessions
      ? { player, game, framing, counts, ...inStableOrder(sessions) }
      : { player, game, framing, counts },
  );
}

/**
 * Session ids are random, so the order SQLite groups them in changes between runs of the same study; the
 * bootstrap draws clusters by position, so a fixed order (by content) keeps a seed's intervals identical.
 */
function inStableOrder(sessions: Map<string, ActionCounts>): {
  clusters: ActionCounts[];
  cluster_ids: string[];
} {
  const key = (c: ActionCounts) =>
    JSON.stringify(Object.entries(c).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const sorted = [...sessions]
    .map(([id, cluster]) => ({ id, cluster, key: key(cluster) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { clusters: sorted.map((s) => s.cluster), cluster_ids: sorted.map((s) => s.id) };
}
