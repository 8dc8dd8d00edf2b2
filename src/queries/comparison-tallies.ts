import type { CellRef, GroupTallies } from "../analysis/comparison/comparison-rows.js";
import { byText } from "../domain/text-order.js";
import type { RecordFilter } from "../store/records.js";
import type { Store } from "../store/store.js";
import { CellActionIndex } from "./cell-action-index.js";

/**
 * The player comparison's input folded from one pass over the live one-shot tallies (player by player,
 * session by session, as the store keys them) instead of the rows of `comparisonCounts`: per player, a
 * few numbers per tally rather than an object per (cell, action, session). Null where the rows are not
 * the tallies alone (`comparesPlayersByTallies`); else the same input as those rows: each session is a
 * unit, except the decisions without a session and every decision of a player none of whose sessions
 * made more than one, which have no unit.
 */
export function playerComparisonTallies(store: Store, filter: RecordFilter): GroupTallies[] | null {
  if (!store.comparesPlayersByTallies(filter)) return null;
  const groups: GroupTallies[] = [];
  let player: PlayerEntries | null = null;
  for (const [group, session, game, framing, action, count] of store.oneShotTallies(filter)) {
    if (player === null || player.group !== group) {
      if (player !== null) groups.push(player.tallies());
      player = new PlayerEntries(group);
    }
    player.add(session, game, framing, action, count);
  }
  if (player !== null) groups.push(player.tallies());
  return groups;
}

/** One player's tallies as they stream by: entries of (cell, action, count), session by session. */
class PlayerEntries {
  private readonly index = new CellActionIndex<CellRef>((game, framing) => ({ game, framing }));
  private readonly cells: readonly CellRef[] = this.index.cells;
  private readonly actions: readonly string[] = this.index.actions;
  private readonly entryCell: number[] = [];
  private readonly entryAction: number[] = [];
  private readonly entryCount: number[] = [];
  /** Where each session's entries start, and whether it is a session ('' is no session). */
  private readonly starts: number[] = [];
  private readonly named: boolean[] = [];
  private session: string | null = null;
  private sessionSize = 0;
  /** The most decisions one (named) session made. */
  private maxSession = 0;

  constructor(readonly group: string) {}

  add(session: string, game: string, framing: string, action: string, count: number): void {
    if (session !== this.session) {
      this.session = session;
      this.starts.push(this.entryCell.length);
      this.named.push(session !== "");
      this.sessionSize = 0;
    }
    this.entryCell.push(this.index.cellOf(game, framing));
    this.entryAction.push(this.index.actionOf(action));
    this.entryCount.push(count);
    if (session !== "") {
      this.sessionSize += count;
      if (this.sessionSize > this.maxSession) this.maxSession = this.sessionSize;
    }
  }

  /**
   * The player's tallies, cells renumbered in (game, framing) order: the sessions' entries first (a
   * session's tallies are in cell and action order already, one variant), then those without a unit.
   */
  tallies(): GroupTallies {
    const order = this.cells.map((_, c) => c);
    order.sort((x, y) => {
      const a = this.cells[x] as CellRef;
      const b = this.cells[y] as CellRef;
      return byText(a.game, b.game) || byText(a.framing, b.framing);
    });
    const renumbered = new Int32Array(this.cells.length);
    order.forEach((c, sorted) => {
      renumbered[c] = sorted;
    });
    // A player none of whose sessions made more than one decision is resampled by decision: no units.
    const units = this.maxSession > 1;
    const entries = this.entryCell.length;
    const entryCell = new Int32Array(entries);
    const entryAction = new Int32Array(entries);
    const entryCount = new Int32Array(entries);
    const unitStarts: number[] = [];
    const loose: number[] = [];
    let at = 0;
    const place = (e: number) => {
      entryCell[at] = renumbered[this.entryCell[e] as number] as number;
      entryAction[at] = this.entryAction[e] as number;
      entryCount[at] = this.entryCount[e] as number;
      at++;
    };
    for (let s = 0; s < this.starts.length; s++) {
      const from = this.starts[s] as number;
      const to = s + 1 < this.starts.length ? (this.starts[s + 1] as number) : entries;
      if (!units || !this.named[s]) {
        for (let e = from; e < to; e++) loose.push(e);
        continue;
      }
      unitStarts.push(at);
      for (let e = from; e < to; e++) place(e);
    }
    unitStarts.push(at);
    const looseFrom = at;
    for (const e of loose) place(e);
    return {
      group: this.group,
      cells: order.map((c) => this.cells[c] as CellRef),
      actions: this.actions,
      unitStarts: Int32Array.from(unitStarts),
      entryCell,
      entryAction,
      entryCount,
      looseFrom,
    };
  }
}
