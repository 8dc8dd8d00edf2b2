import { byText } from "./player-tallies.js";

/** A session's decisions of one action in one (game, variant, framing), and the order effect's counts. */
export interface SessionTally {
  readonly game: string;
  readonly variant: string;
  readonly framing: string;
  readonly action: string;
  count: number;
  /** Of `listed` (decisions of a two-action game, whose listing order was recorded), those that chose the first listed. */
  firstListed: number;
  listed: number;
}

/** A row of the store's session text: game, variant, framing, action, count, order_position. */
type TallyRow = [string, string, string, string, number | string, number | string];

const byKey = (a: SessionTally, b: SessionTally): number =>
  byText(a.game, b.game) ||
  byText(a.variant, b.variant) ||
  byText(a.framing, b.framing) ||
  byText(a.action, b.action);

/**
 * One session's tallies from the text of `oneShotSessions` (comma-joined JSON arrays, in no set order), as
 * the per-action rows of the store's key order: sorted by game, variant, framing and action (code point
 * order), rows of the same key (another study, principal or listing order) summed into one.
 */
export function sessionTallies(text: string): SessionTally[] {
  const rows = JSON.parse(`[${text}]`) as TallyRow[];
  const tallies: SessionTally[] = rows.map(([game, variant, framing, action, count, position]) => {
    const n = Number(count);
    const order = Number(position);
    return {
      game,
      variant,
      framing,
      action,
      count: n,
      firstListed: order === 0 ? n : 0,
      listed: order >= 0 ? n : 0,
    };
  });
  tallies.sort(byKey);
  const merged: SessionTally[] = [];
  for (const tally of tallies) {
    const last = merged[merged.length - 1];
    if (last !== undefined && byKey(last, tally) === 0) {
      last.count += tally.count;
      last.firstListed += tally.firstListed;
      last.listed += tally.listed;
    } else merged.push(tally);
  }
  return merged;
}
