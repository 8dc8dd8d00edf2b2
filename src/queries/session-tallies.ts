import { byText } from "../domain/text-order.js";

/**
 * A session's decisions of one action in one cell: [game, variant, framing, action, count, first_listed,
 * listed], where `listed` of the `count` decisions were made in a two-action game (whose listing order was
 * recorded) and `first_listed` of those chose the action listed first.
 */
export type SessionTally = [string, string, string, string, number, number, number];

/** The order of the store's key: game, variant, framing, action (code point order). */
const byKey = (a: SessionTally, b: SessionTally): number =>
  byText(a[0], b[0]) || byText(a[1], b[1]) || byText(a[2], b[2]) || byText(a[3], b[3]);

/**
 * One session's tallies from the text of `oneShotSessions` (comma-joined JSON arrays [game, variant,
 * framing, action, count, order_position], in no set order) as the store's GROUP BY of a session's
 * cells and actions would list them: in key order, rows of the same key (another study, principal or
 * listing order) summed into one.
 */
export function sessionTallies(text: string): SessionTally[] {
  // Each row is turned into a tally in place: its order_position becomes first_listed, then listed.
  const rows = JSON.parse(`[${text}]`) as (string | number)[][];
  let sorted = true;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as (string | number)[];
    const count = Number(row[4]);
    const position = Number(row[5]);
    row[4] = count;
    row[5] = position === 0 ? count : 0;
    row[6] = position >= 0 ? count : 0;
    if (i > 0 && byKey(rows[i - 1] as SessionTally, row as SessionTally) >= 0) sorted = false;
  }
  const tallies = rows as SessionTally[];
  if (sorted) return tallies;
  tallies.sort(byKey);
  const merged: SessionTally[] = [];
  for (const tally of tallies) {
    const last = merged[merged.length - 1];
    if (last !== undefined && byKey(last, tally) === 0) {
      last[4] += tally[4];
      last[5] += tally[5];
      last[6] += tally[6];
    } else merged.push(tally);
  }
  return merged;
}
