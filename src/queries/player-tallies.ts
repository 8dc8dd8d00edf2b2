import type { ActionCounts } from "../domain/types.js";
import { CellActionIndex } from "./cell-action-index.js";
import { SequenceTable } from "./sequence-table.js";
import type { SessionTally } from "./session-tallies.js";

/** One cell of a player as its tallies stream by: totals per action index, and the order effect's counts. */
export interface TalliedCell {
  readonly game: string;
  readonly framing: string;
  /** Decisions per action index (the player's `actions`). */
  readonly counts: number[];
  /** Decisions of a two-action game (whose listing order was recorded), and those that chose the first listed. */
  listed: number;
  firstListed: number;
}

/** A cell's listed session types: counts, id and weight, in the order the bootstrap draws them. */
export interface CellTypes {
  readonly clusters: ActionCounts[];
  readonly ids: string[];
  readonly weights: number[];
}

/** Text order by code point, as the engines' binary ORDER BY. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The key of a cluster by content (its actions sorted): the order clusters are listed in. */
export function contentKey(counts: ActionCounts): string {
  return JSON.stringify(Object.entries(counts).sort(([a], [b]) => byText(a, b)));
}

/**
 * One player's live one-shot tallies, added session by session (each in the store's key order),
 * held as indices into the player's cells and actions: a few numbers per row, whatever the strings. Once
 * the player's last row is in, `types` folds its sessions into the types the bootstrap draws (sessions
 * with the same counts listed once, with a weight), and the player's rows can be dropped.
 */
export class PlayerTallies {
  private readonly index = new CellActionIndex<TalliedCell>((game, framing) => ({
    game,
    framing,
    counts: [],
    listed: 0,
    firstListed: 0,
  }));
  readonly cells: readonly TalliedCell[] = this.index.cells;
  readonly actions: readonly string[] = this.index.actions;
  /** The most decisions one session made: a player whose sessions never made more than one is analysed by decision. */
  maxSession = 0;
  /** Whether some session made decisions in more than one cell: its types are then whole sessions. */
  spans = false;
  // Entry e of the rows: its cell, action and count; session s holds entries [starts[s], starts[s + 1]).
  private readonly entryCell: number[] = [];
  private readonly entryAction: number[] = [];
  private readonly entryCount: number[] = [];
  private readonly starts: number[] = [];

  constructor(readonly player: string) {}

  /** One session's tallies, in the store's key order (sessionTallies). */
  addSession(tallies: readonly SessionTally[]): void {
    const first = this.entryCell.length;
    this.starts.push(first);
    let size = 0;
    for (const [game, , framing, action, count, firstListed, listed] of tallies) {
      const c = this.index.cellOf(game, framing);
      const a = this.index.actionOf(action);
      const cell = this.cells[c] as TalliedCell;
      cell.counts[a] = (cell.counts[a] ?? 0) + count;
      cell.listed += listed;
      cell.firstListed += firstListed;
      this.entryCell.push(c);
      this.entryAction.push(a);
      this.entryCount.push(count);
      size += count;
      if (c !== this.entryCell[first]) this.spans = true;
    }
    if (size > this.maxSession) this.maxSession = size;
  }

  /** The cell's totals as action → count, actions in text order (the engine's ORDER BY). */
  countsOf(cell: TalliedCell): ActionCounts {
    const counts: ActionCounts = {};
    for (const a of this.actionOrder()) {
      const n = cell.counts[a] ?? 0;
      if (n > 0) counts[this.actions[a] as string] = n;
    }
    return counts;
  }

  /**
   * The player's sessions folded into types, per cell index: per cell (each session's counts in that cell)
   * when every session stays in one cell, else per whole session (its counts in every cell, one id shared
   * by the cells), so the joint bootstrap still resamples sessions across cells. Types are numbered in
   * the order first seen and listed by content (contentKey), ties in that order, so a seed gives the same
   * intervals as listing every session.
   */
  types(): CellTypes[] {
    const cellKeys = this.cells.map((c) => JSON.stringify([this.player, c.game, c.framing]));
    const rank = new Int32Array(this.actions.length);
    this.actionOrder().forEach((a, r) => {
      rank[a] = r;
    });
    // A session's counts in one cell, keyed by (action rank, count) pairs, numbered in the order first
    // seen, with one shared object per content.
    const contentNumbers = new Map<string, number>();
    const contents: ActionCounts[] = [];
    const byCell: Map<number, number>[] = this.cells.map(() => new Map());
    // Whole sessions (their (cell, content) pairs, in the order sessionParts lists the cells) when sessions
    // span cells: one `whole` buffer reused for every session.
    const spans = this.spans;
    const wholes = new SequenceTable();
    let whole = new Int32Array(16);
    const sessions = this.starts.length;
    for (let s = 0; s < sessions; s++) {
      const from = this.starts[s] as number;
      const to = s + 1 < sessions ? (this.starts[s + 1] as number) : this.entryCell.length;
      const parts = this.sessionParts(from, to, rank, cellKeys);
      if (2 * parts.length > whole.length) whole = new Int32Array(4 * parts.length);
      let length = 0;
      for (const part of parts) {
        let content = "";
        for (const [a, n] of part.entries) content += `${rank[a]}:${n},`;
        let number = contentNumbers.get(content);
        if (number === undefined) {
          number = contents.length;
          const counts: ActionCounts = {};
          for (const [a, n] of part.entries) counts[this.actions[a] as string] = n;
          contentNumbers.set(content, number);
          contents.push(counts);
        }
        // Only one of the two listings is used: by whole session when sessions span cells, else by cell.
        if (spans) {
          whole[length++] = part.cell;
          whole[length++] = number;
        } else {
          const types = byCell[part.cell] as Map<number, number>;
          types.set(number, (types.get(number) ?? 0) + 1);
        }
      }
      if (spans) wholes.add(whole, length);
    }

    // Each distinct content ranked once by its key, so the types sort by a number rather than by text.
    const rankOf = new Int32Array(contents.length);
    contents
      .map((counts, number) => ({ number, key: contentKey(counts) }))
      .sort((a, b) => byText(a.key, b.key))
      .forEach(({ number }, r) => {
        rankOf[number] = r;
      });
    // Per cell its listings in the order first seen (type by type, or content by content), each as its
    // content's number, its id and weight; then ordered by the contents' ranks, ties in that order.
    const listed = this.cells.map(() => ({
      contents: [] as number[],
      ids: [] as string[],
      weights: [] as number[],
    }));
    if (spans) {
      for (let t = 0; t < wholes.size; t++) {
        const id = `type ${t}`;
        const weight = wholes.count(t);
        const pairs = wholes.sequence(t);
        for (let i = 0; i < pairs.length; i += 2) {
          const cell = listed[pairs[i] as number];
          cell?.contents.push(pairs[i + 1] as number);
          cell?.ids.push(id);
          cell?.weights.push(weight);
        }
      }
    } else {
      byCell.forEach((types, c) => {
        const cell = listed[c] as (typeof listed)[number];
        let t = 0;
        for (const [number, weight] of types) {
          cell.contents.push(number);
          cell.ids.push(`${cellKeys[c]} type ${t++}`);
          cell.weights.push(weight);
        }
      });
    }
    return listed.map((cell) => {
      // A stable sort by rank: listings of equal content keep the order they were first seen in.
      const order = cell.contents.map((_, i) => i);
      order.sort(
        (i, j) =>
          (rankOf[cell.contents[i] as number] as number) - (rankOf[cell.contents[j] as number] as number),
      );
      return {
        clusters: order.map((i) => contents[cell.contents[i] as number] as ActionCounts),
        ids: order.map((i) => cell.ids[i] as string),
        weights: order.map((i) => cell.weights[i] as number),
      };
    });
  }

  /** Action indices in text order of the actions. */
  private actionOrder(): number[] {
    return this.actions
      .map((_, i) => i)
      .sort((i, j) => byText(this.actions[i] as string, this.actions[j] as string));
  }

  /**
   * One session's entries grouped by cell, cells in (game, framing) order and actions in text order. The
   * store lists a session's rows in that order already; a filter that leaves several variants lists a
   * cell once per variant, and those rows are merged here.
   */
  private sessionParts(
    from: number,
    to: number,
    rank: Int32Array,
    cellKeys: readonly string[],
  ): { cell: number; entries: [number, number][] }[] {
    const parts: { cell: number; entries: [number, number][] }[] = [];
    let merged = false;
    for (let e = from; e < to; e++) {
      const cell = this.entryCell[e] as number;
      const action = this.entryAction[e] as number;
      const count = this.entryCount[e] as number;
      let part =
        parts.length > 0 && parts[parts.length - 1]?.cell === cell ? parts[parts.length - 1] : undefined;
      if (part === undefined) {
        part = parts.find((p) => p.cell === cell);
        if (part !== undefined) merged = true;
      }
      if (part === undefined) {
        parts.push({ cell, entries: [[action, count]] });
        continue;
      }
      const last = part.entries[part.entries.length - 1] as [number, number];
      if ((rank[action] as number) > (rank[last[0]] as number)) {
        part.entries.push([action, count]);
        continue;
      }
      merged = true;
      const same = part.entries.find(([a]) => a === action);
      if (same) same[1] += count;
      else part.entries.push([action, count]);
    }
    if (merged) {
      parts.sort((a, b) => byText(cellKeys[a.cell] as string, cellKeys[b.cell] as string));
      for (const part of parts) part.entries.sort(([a], [b]) => (rank[a] as number) - (rank[b] as number));
    }
    return parts;
  }
}
