import type { CountCell } from "../analysis/count-cells.js";
import { throwIfCancelled } from "../analysis/progress/analysis-cancellation.js";
import { byText } from "../domain/text-order.js";
import type { ActionCounts } from "../domain/types.js";
import type { CellCountRow, RecordFilter } from "../store/records.js";
import type { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import { printable } from "./format.js";
import { contentKey, PlayerTallies } from "./player-tallies.js";
import { sessionTallies } from "./session-tallies.js";
import { shellWord } from "./shell-word.js";

interface CellBuilder {
  player: string;
  game: string;
  framing: string;
  counts: ActionCounts;
  /** Per-session counts of live cells; null for imported counts (decisions without a session). */
  sessions: Map<string, ActionCounts> | null;
}

/**
 * Folds the store's GROUP BY rows (one per cell × action × session) into analysis cells. Sessions are
 * kept as clusters, so the bootstrap can resample whole sessions: live MCP sessions, and the sessions of
 * imported records that gave one. A cell may not mix live and imported decisions: its resampling unit
 * would be undefined. An imported cell whose imports gave sessions to only some of its decisions counts
 * each of the others as a session of its own (one decision each, as decisions without sessions are drawn).
 */
export function cellsFromRows(rows: readonly CellCountRow[]): CountCell[] {
  const cells = new Map<string, CellBuilder & { live: boolean; loose: ActionCounts; block: number }>();
  // Where each source's rows begin (live play, then each import as the store lists them): a cell is
  // listed in the block of the first source it came from.
  const blocks = new Map<string | null, number>();
  for (const row of rows) {
    const key = JSON.stringify([row.player, row.game, row.framing]);
    const live = row.source === null;
    let block = blocks.get(row.source);
    if (block === undefined) {
      block = blocks.size;
      blocks.set(row.source, block);
    }
    let cell = cells.get(key);
    if (!cell) {
      cell = {
        player: row.player,
        game: row.game,
        framing: row.framing,
        counts: {},
        sessions: new Map(),
        live,
        loose: {},
        block,
      };
      cells.set(key, cell);
    }
    if (live !== cell.live) throw mixedCell(row, rows);
    cell.counts[row.action] = (cell.counts[row.action] ?? 0) + row.count;
    const sessions = cell.sessions as Map<string, ActionCounts>;
    const cluster = row.session_id === null ? cell.loose : (sessions.get(row.session_id) ?? {});
    cluster[row.action] = (cluster[row.action] ?? 0) + row.count;
    if (row.session_id !== null) sessions.set(row.session_id, cluster);
  }
  // Cells by (source, player, game, framing), not in the order the rows reach them: the rows come
  // session by session, so that order would follow the session ids (random for live play, labels for an
  // import), and every analysis that draws its cells from one stream in turn would change with them.
  const ordered = [...cells.values()].sort(
    (a, b) =>
      a.block - b.block ||
      byText(a.player, b.player) ||
      byText(a.game, b.game) ||
      byText(a.framing, b.framing),
  );
  return ordered.map(({ player, game, framing, counts, sessions, loose }) =>
    sessions === null || sessions.size === 0
      ? { player, game, framing, counts }
      : {
          player,
          game,
          framing,
          counts,
          ...inStableOrder(sessions, loose, JSON.stringify([player, game, framing])),
        },
  );
}

/**
 * The refusal of a cell holding both live and imported decisions (an import refuses to make one; a record
 * of an older version may hold one): which import put them there, and how to take it out again, since its
 * decisions cannot be told apart from the live ones by anything but their player label.
 */
function mixedCell(cell: CellCountRow, rows: readonly CellCountRow[]): UsageError {
  const sources = [
    ...new Set(
      rows
        .filter(
          (r) =>
            r.source !== null &&
            r.player === cell.player &&
            r.game === cell.game &&
            r.framing === cell.framing,
        )
        .map((r) => r.source as string),
    ),
  ].sort();
  const named = sources.map((s) => `"${printable(s)}"`).join(", ");
  const remove = sources.map((s) => `same-game import remove --source ${shellWord(s)}`).join(" and ");
  return new UsageError(
    `Player "${printable(cell.player)}" has both live and imported decisions for ${printable(`${cell.game} / ${cell.framing}`)} (imported from source${sources.length > 1 ? "s" : ""} ${named}), which no analysis can resample together; run ${remove}, then import ${sources.length > 1 ? "those files" : "that file"} again under another player label (until then, --players without this player analyses the others).`,
  );
}

/**
 * Session ids are random, so the order SQLite groups them in changes between runs of the same study; the
 * bootstrap draws clusters by position, so a fixed order (by content) keeps a seed's intervals identical.
 * Decisions without a session (`loose`) join as one-decision sessions, one weighted cluster per action.
 */
function inStableOrder(
  sessions: Map<string, ActionCounts>,
  loose: ActionCounts,
  cell: string,
): {
  clusters: ActionCounts[];
  cluster_ids: string[];
  cluster_weights?: number[];
} {
  const singles = Object.entries(loose)
    .filter(([, count]) => count > 0)
    .map(([action, count]) => ({
      id: JSON.stringify(["one decision", cell, action]),
      cluster: { [action]: 1 } as ActionCounts,
      weight: count,
    }));
  const sorted = [...[...sessions].map(([id, cluster]) => ({ id, cluster, weight: 1 })), ...singles]
    .map((s) => ({ ...s, key: contentKey(s.cluster) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    clusters: sorted.map((s) => s.cluster),
    cluster_ids: sorted.map((s) => s.id),
    ...(singles.length === 0 ? {} : { cluster_weights: sorted.map((s) => s.weight) }),
  };
}

/** Per player: valid one-shot decisions of two-action games, and how many chose the first-listed action. */
export interface FirstListedRow {
  player: string;
  decisions: number;
  first_listed: number;
}

/** The one-shot cells of a filter, with the order effect's counts read in the same pass. */
export interface OneShotRead {
  readonly cells: CountCell[];
  /**
   * Per player (sorted), its live decisions of two-action games in the cells of `games` × `framings`, and
   * how many of them chose the action listed first: the order effect's counts over exactly those cells.
   */
  firstListed(games: readonly string[], framings: readonly string[]): FirstListedRow[];
}

/**
 * The analysis cells of the record's one-shot play (live and imported) straight from the store's tallies,
 * with sessions that have the same counts listed once with a weight: per cell for a player
 * whose sessions each stay in one cell, per whole session (its counts in every cell) for a player whose
 * sessions span cells, so the joint bootstrap still resamples sessions across cells. Players whose
 * sessions never made more than one decision get counts only: they are resampled by decision. The result
 * analyses exactly like `cellsFromRows(store.oneShotCellCounts(filter))`.
 */
export function oneShotCells(store: Store, filter: RecordFilter): CountCell[] {
  return readOneShot(store, filter).cells;
}

/**
 * `oneShotCells` and the order effect's counts from one pass over the live tallies (player by player,
 * session by session): each player's rows are held as a few numbers each until its last session is in,
 * folded into its cells, and dropped.
 */
export function readOneShot(store: Store, filter: RecordFilter): OneShotRead {
  const live: CountCell[] = [];
  const order: { player: string; game: string; framing: string; listed: number; firstListed: number }[] = [];
  // The ids of whole-session types, one string each for every player (PlayerTallies.types).
  const typeIds: string[] = [];
  const endPlayer = (tallies: PlayerTallies) => {
    const types = tallies.maxSession > 1 ? tallies.types(typeIds) : null;
    const cells = tallies.cells.map((cell, i) => ({ cell, i }));
    cells.sort((a, b) => byText(a.cell.game, b.cell.game) || byText(a.cell.framing, b.cell.framing));
    for (const { cell, i } of cells) {
      const typed = types?.[i];
      // One literal with every field, absent ones undefined: every cell has the same hidden class, held by
      // this literal's site, so the analysis' optimized code over cells keeps its maps from call to call
      // (cells of two shapes made by a spread got maps that died with each call's cells, and code
      // compiled against them was thrown away: "wrong map" deopts, then a recompile, every other call).
      live.push({
        player: tallies.player,
        game: cell.game,
        framing: cell.framing,
        counts: tallies.countsOf(cell),
        clusters: typed?.clusters,
        cluster_ids: typed?.ids,
        cluster_weights: typed?.weights,
      });
      if (cell.listed > 0) order.push({ player: tallies.player, ...cell });
    }
  };
  let tallies: PlayerTallies | null = null;
  for (const [player, session] of store.oneShotSessions(filter)) {
    // A cancelled analysis stops here too: at a million decisions this read takes 2–3 s, longer than the
    // second a cancellation may take before the pool has to terminate (and later restart) the worker.
    throwIfCancelled();
    if (tallies === null || tallies.player !== player) {
      if (tallies !== null) endPlayer(tallies);
      tallies = new PlayerTallies(player);
    }
    tallies.addSession(sessionTallies(session));
  }
  if (tallies !== null) endPlayer(tallies);

  const liveKeys = new Set(live.map((c) => JSON.stringify([c.player, c.game, c.framing])));
  const importedRows = store.importedCellCounts(filter);
  const clash = importedRows.find((row) => liveKeys.has(JSON.stringify([row.player, row.game, row.framing])));
  if (clash !== undefined) throw mixedCell(clash, importedRows);
  const imported = cellsFromRows(importedRows);
  return {
    cells: [...live, ...imported],
    firstListed(games, framings) {
      const rows = new Map<string, FirstListedRow>();
      for (const cell of order) {
        if (!games.includes(cell.game) || !framings.includes(cell.framing)) continue;
        const row = rows.get(cell.player) ?? { player: cell.player, decisions: 0, first_listed: 0 };
        row.decisions += cell.listed;
        row.first_listed += cell.firstListed;
        rows.set(cell.player, row);
      }
      return [...rows.values()];
    },
  };
}
