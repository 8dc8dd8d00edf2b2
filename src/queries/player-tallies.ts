import { byText } from "../domain/text-order.js";
import type { ActionCounts } from "../domain/types.js";
import { CellActionIndex } from "./cell-action-index.js";
import { grown } from "./grown-array.js";
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
  // Entry e < entries of the rows: its cell, action and count; session s < sessions holds entries
  // [starts[s], starts[s + 1]) (the last one up to `entries`). Typed arrays, doubled as they fill: a player
  // of a million-decision record holds some 50,000 entries until its last session is in, and arrays of
  // numbers grown a push at a time left their outgrown copies in the old generation.
  private entryCell = new Int32Array(256);
  private entryAction = new Int32Array(256);
  private entryCount = new Float64Array(256);
  private entries = 0;
  private starts = new Int32Array(64);
  private sessions = 0;

  constructor(readonly player: string) {}

  /** One session's tallies, in the store's key order (sessionTallies). */
  addSession(tallies: readonly SessionTally[]): void {
    const first = this.entries;
    if (this.sessions === this.starts.length) this.starts = grown(this.starts, 2 * this.sessions);
    this.starts[this.sessions++] = first;
    if (first + tallies.length > this.entryCell.length) {
      const room = Math.max(first + tallies.length, 2 * this.entryCell.length);
      this.entryCell = grown(this.entryCell, room);
      this.entryAction = grown(this.entryAction, room);
      this.entryCount = grown(this.entryCount, room);
    }
    let size = 0;
    for (const [game, , framing, action, count, firstListed, listed] of tallies) {
      const c = this.index.cellOf(game, framing);
      const a = this.index.actionOf(action);
      const cell = this.cells[c] as TalliedCell;
      cell.counts[a] = (cell.counts[a] ?? 0) + count;
      cell.listed += listed;
      cell.firstListed += firstListed;
      const e = this.entries++;
      this.entryCell[e] = c;
      this.entryAction[e] = a;
      this.entryCount[e] = count;
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
   * intervals as listing every session. `typeIds` holds the whole-session types' ids ("type 0", "type 1",
   * ...) written so far, extended as needed: shared by the players of one read, each id is one string for
   * all of them (at a million decisions, some 300,000 strings otherwise, held with the cells).
   */
  types(typeIds: string[] = []): CellTypes[] {
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
    const sessions = this.sessions;
    for (let s = 0; s < sessions; s++) {
      const from = this.starts[s] as number;
      const to = s + 1 < sessions ? (this.starts[s + 1] as number) : this.entries;
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
    if (spans) return this.wholeTypes(wholes, contents, rankOf, typeIds);
    // Per cell its types in the order first seen, each as its content's number, its id and weight; then
    // ordered by the contents' ranks, ties in that order (a cell lists each content once: few entries).
    return byCell.map((types, c) => {
      const numbers: number[] = [];
      const ids: string[] = [];
      const weights: number[] = [];
      let t = 0;
      for (const [number, weight] of types) {
        numbers.push(number);
        ids.push(`${cellKeys[c]} type ${t++}`);
        weights.push(weight);
      }
      // A stable sort by rank: listings of equal content keep the order they were first seen in.
      const order = numbers.map((_, i) => i);
      order.sort(
        (i, j) => (rankOf[numbers[i] as number] as number) - (rankOf[numbers[j] as number] as number),
      );
      return {
        clusters: order.map((i) => contents[numbers[i] as number] as ActionCounts),
        ids: order.map((i) => ids[i] as string),
        weights: order.map((i) => weights[i] as number),
      };
    });
  }

  /**
   * The listings of whole-session types, per cell: the types that decided there, ordered by their
   * content's rank there and, within a rank, in the order first seen. Each cell's listings are sorted as
   * the numbers rank·T + t (T types) in a typed array, so that nothing but the cells' own lists is left
   * on the heap per listing (the player's tens of thousands of listings went through three lists of
   * numbers and an order of their own, all old garbage by the time the lists were done).
   */
  private wholeTypes(
    wholes: SequenceTable,
    contents: readonly ActionCounts[],
    rankOf: Int32Array,
    typeIds: string[],
  ): CellTypes[] {
    const T = wholes.size;
    for (let t = typeIds.length; t < T; t++) typeIds.push(`type ${t}`);
    const byRank = new Int32Array(contents.length);
    rankOf.forEach((r, number) => {
      byRank[r] = number;
    });
    const sizes = new Int32Array(this.cells.length);
    for (let t = 0; t < T; t++) {
      const pairs = wholes.sequence(t);
      for (let i = 0; i < pairs.length; i += 2) sizes[pairs[i] as number]++;
    }
    const keys = Array.from(sizes, (size) => new Float64Array(size));
    const filled = new Int32Array(this.cells.length);
    for (let t = 0; t < T; t++) {
      const pairs = wholes.sequence(t);
      for (let i = 0; i < pairs.length; i += 2) {
        const cell = pairs[i] as number;
        const at = filled[cell] as number;
        filled[cell] = at + 1;
        (keys[cell] as Float64Array)[at] = (rankOf[pairs[i + 1] as number] as number) * T + t;
      }
    }
    return keys.map((cell) => {
      cell.sort();
      const clusters: ActionCounts[] = [];
      const ids: string[] = [];
      const weights: number[] = [];
      for (const key of cell) {
        const t = key % T;
        clusters.push(contents[byRank[(key - t) / T] as number] as ActionCounts);
        ids.push(typeIds[t] as string);
        weights.push(wholes.count(t));
      }
      return { clusters, ids, weights };
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
