import { printable } from "../queries/format.js";
import type { ImportedCountRow } from "../store/records.js";
import { UsageError } from "../usage-error.js";

/** How many of a source's players a refusal names before it says how many more there are. */
const PLAYERS_NAMED = 5;

const rowKey = (r: ImportedCountRow) =>
  JSON.stringify([r.player, r.session ?? "", r.game, r.variant, r.framing, r.action, r.count]);

/** Whether the counts stored under a source are exactly these rows, in whatever order. */
export function sameCounts(stored: readonly ImportedCountRow[], rows: readonly ImportedCountRow[]): boolean {
  if (stored.length !== rows.length) return false;
  const keys = new Set(stored.map(rowKey));
  return rows.every((r) => keys.has(rowKey(r)));
}

/**
 * The refusal of a file whose counts differ from those its source label already holds. The default label
 * is the file's base name, so two machines' `counts.csv` share one; replacing the first without a word
 * would lose it, so the user says which they meant: another label to add, or --replace.
 */
export function differentCountsError(
  fileLabel: string,
  source: string,
  stored: readonly ImportedCountRow[],
): UsageError {
  const decisions = stored.reduce((sum, r) => sum + r.count, 0);
  const players = [...new Set(stored.map((r) => r.player))].sort();
  const named = players.slice(0, PLAYERS_NAMED).map(printable).join(", ");
  const more = players.length > PLAYERS_NAMED ? ` and ${players.length - PLAYERS_NAMED} more` : "";
  return new UsageError(
    `${printable(fileLabel)}: the source "${printable(source)}" already holds other counts (${stored.length} rows, ${decisions} decisions; player${players.length === 1 ? "" : "s"} ${named}${more}); nothing was imported: pass --source OTHER to add this file beside them, or --replace to replace them with this file.`,
  );
}
