import type { CountCell } from "../analysis/count-cells.js";
import type { ActionCounts } from "../domain/types.js";
import type { CellCountRow, RecordFilter } from "../store/records.js";
import type { Store } from "../store/store.js";
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
 * Folds the store's GROUP BY rows (one per cell × action × session) into analysis cells. Sessions are
 * kept as clusters, so the bootstrap can resample whole sessions: live MCP sessions, and the sessions of
 * imported records that gave one. A cell may not mix live and imported decisions: its resampling unit
 * would be undefined. An imported cell whose imports gave sessions to only some of its decisions counts
 * each of the others as a session of its own (one decision each, as decisions without sessions are drawn).
 */
export function cellsFromRows(rows: readonly CellCountRow[]): CountCell[] {
  const cells = new Map<string, CellBuilder & { live: boolean; loose: ActionCounts }>();
  for (const row of rows) {
    const key = JSON.stringify([row.player, row.game, row.framing]);
    const live = row.source === null;
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
      };
      cells.set(key, cell);
    }
    if (live !== cell.live) {
      throw new UsageError(
        `Player "${row.player}" has both live and imported decisions for ${row.game} / ${row.framing}; import the published counts under another player label.`,
      );
    }
    cell.counts[row.action] = (cell.counts[row.action] ?? 0) + row.count;
    const sessions = cell.sessions as Map<string, ActionCounts>;
    const cluster = row.session_id === null ? cell.loose : (sessions.get(row.session_id) ?? {});
    cluster[row.action] = (cluster[row.action] ?? 0) + row.count;
    if (row.session_id !== null) sessions.set(row.session_id, cluster);
  }
  return [...cells.values()].map(({ player, game, framing, counts, sessions, loose }) =>
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

/**
 * The analysis cells of the record's one-shot play (live and imported) straight from the store's tallies,
 * with sessions that have the same counts listed once with a weight: per cell for a player
 * whose sessions each stay in one cell, per whole session (its counts in every cell) for a player whose
 * sessions span cells, so the joint bootstrap still resamples sessions across cells. Players whose
 * sessions never made more than one decision get counts only: they are resampled by decision. The result
 * analyses exactly like `cellsFromRows(store.oneShotCellCounts(filter))`.
 */
export function oneShotCells(store: Store, filter: RecordFilter): CountCell[] {
  const { cells: totals, clusteredPlayers } = store.oneShotCellTotals(filter);
  const live = new Map<
    string,
    CellBuilder & { clusters?: ActionCounts[]; ids?: string[]; weights?: number[] }
  >();
  const cellKey = (player: string, game: string, framing: string) => JSON.stringify([player, game, framing]);
  for (const row of totals) {
    const key = cellKey(row.player, row.game, row.framing);
    const cell = live.get(key) ?? {
      player: row.player,
      game: row.game,
      framing: row.framing,
      counts: {},
      sessions: null,
    };
    cell.counts[row.action] = (cell.counts[row.action] ?? 0) + row.count;
    live.set(key, cell);
  }
  for (const folded of foldSessions(store.oneShotSessionCounts({ ...filter, players: clusteredPlayers }))) {
    const cell = live.get(cellKey(folded.player, folded.game, folded.framing));
    if (cell === undefined) continue;
    Object.assign(cell, { clusters: folded.clusters, ids: folded.ids, weights: folded.weights });
  }
  const imported = cellsFromRows(store.importedCellCounts(filter));
  for (const cell of imported) {
    if (live.has(cellKey(cell.player, cell.game, cell.framing))) {
      throw new UsageError(
        `Player "${cell.player}" has both live and imported decisions for ${cell.game} / ${cell.framing}; import the published counts under another player label.`,
      );
    }
  }
  const liveCells: CountCell[] = [...live.values()].map(
    ({ player, game, framing, counts, clusters, ids, weights }) =>
      clusters === undefined
        ? { player, game, framing, counts }
        : { player, game, framing, counts, clusters, cluster_ids: ids, cluster_weights: weights },
  );
  return [...liveCells, ...imported];
}

interface FoldedCell {
  player: string;
  game: string;
  framing: string;
  clusters: ActionCounts[];
  ids: string[];
  weights: number[];
}

type SessionRow = [string, string, string, string, string, string, number];

/**
 * Sessions (rows in player, session order) folded into types. Per player both foldings are kept while
 * its sessions stream by — by cell and by whole session — and the one that fits is used once the
 * player's last session is seen; memory holds types, not sessions.
 */
function* foldSessions(rows: Iterable<SessionRow>): Generator<FoldedCell> {
  let player: string | null = null;
  let session: string | null = null;
  let entries: { cell: string; action: string; count: number }[] = [];
  // cell → vector key → weight; whole-session key → weight; and whether a session spans cells.
  let byCell = new Map<string, Map<string, number>>();
  let bySession = new Map<string, number>();
  let spans = false;

  const endSession = () => {
    if (entries.length === 0) return;
    const perCell = new Map<string, ActionCounts>();
    for (const e of entries) {
      const counts = perCell.get(e.cell) ?? {};
      counts[e.action] = (counts[e.action] ?? 0) + e.count;
      perCell.set(e.cell, counts);
    }
    if (perCell.size > 1) spans = true;
    for (const [cell, counts] of perCell) {
      const types = byCell.get(cell) ?? new Map<string, number>();
      const key = contentKey(counts);
      types.set(key, (types.get(key) ?? 0) + 1);
      byCell.set(cell, types);
    }
    const whole = JSON.stringify([...perCell].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    bySession.set(whole, (bySession.get(whole) ?? 0) + 1);
    entries = [];
  };

  function* endPlayer(): Generator<FoldedCell> {
    endSession();
    if (player === null) return;
    const cells = new Map<string, { clusters: ActionCounts[]; ids: string[]; weights: number[] }>();
    const add = (cell: string, counts: ActionCounts, id: string, weight: number) => {
      const folded = cells.get(cell) ?? { clusters: [], ids: [], weights: [] };
      folded.clusters.push(counts);
      folded.ids.push(id);
      folded.weights.push(weight);
      cells.set(cell, folded);
    };
    if (spans) {
      let t = 0;
      for (const [whole, weight] of bySession) {
        const id = `type ${t++}`;
        for (const [cell, counts] of JSON.parse(whole) as [string, ActionCounts][])
          add(cell, counts, id, weight);
      }
    } else {
      for (const [cell, types] of byCell) {
        let t = 0;
        for (const [key, weight] of types)
          add(cell, Object.fromEntries(JSON.parse(key)), `${cell} type ${t++}`, weight);
      }
    }
    for (const [cell, folded] of cells) {
      const [p, game, framing] = JSON.parse(cell) as [string, string, string];
      // By content, as inStableOrder: a seed then gives the same intervals as listing every session.
      const order = folded.clusters
        .map((c, i) => ({ i, key: contentKey(c) }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .map((o) => o.i);
      yield {
        player: p,
        game,
        framing,
        clusters: order.map((i) => folded.clusters[i] as ActionCounts),
        ids: order.map((i) => folded.ids[i] as string),
        weights: order.map((i) => folded.weights[i] as number),
      };
    }
    byCell = new Map();
    bySession = new Map();
    spans = false;
  }

  for (const [p, s, game, , framing, action, count] of rows) {
    if (p !== player) {
      yield* endPlayer();
      player = p;
      session = null;
    }
    if (s !== session) {
      endSession();
      session = s;
    }
    entries.push({ cell: JSON.stringify([p, game, framing]), action, count });
  }
  yield* endPlayer();
}

function contentKey(counts: ActionCounts): string {
  return JSON.stringify(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
