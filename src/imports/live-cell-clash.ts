import { printable } from "../queries/format.js";
import type { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";

/** A one-shot cell an import would write to. */
export interface ImportedCell {
  player: string;
  game: string;
  variant: string;
  framing: string;
}

/** How many clashing cells the refusal names before it says how many more there are. */
const CELLS_NAMED = 3;

/**
 * Refuses an import that would put imported decisions into a one-shot cell that holds live ones. An
 * analysis resamples a cell by its live sessions or by its imported records, never both, so such a cell
 * would stop every whole-record analysis and the report; the refusal comes before anything is written.
 * `where`: what the user edits to choose another player label (the CSV's player column, the JSONL's field).
 */
export function refuseCellsWithLivePlay(
  store: Store,
  cells: readonly ImportedCell[],
  fileLabel: string,
  where: string,
): void {
  const key = (c: ImportedCell) => JSON.stringify([c.player, c.game, c.variant, c.framing]);
  const live = new Set(store.liveOneShotCells(cells.map((c) => c.player)).map(key));
  const clashes = new Map<string, ImportedCell>();
  for (const cell of cells) if (live.has(key(cell))) clashes.set(key(cell), cell);
  if (clashes.size === 0) return;
  const sorted = [...clashes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
  const named = sorted
    .slice(0, CELLS_NAMED)
    .map((c) => printable(`${c.player} / ${c.game} / ${c.variant} / ${c.framing}`))
    .join("; ");
  const more = sorted.length > CELLS_NAMED ? ` and ${sorted.length - CELLS_NAMED} more` : "";
  throw new UsageError(
    `${printable(fileLabel)}: the record already holds live decisions in ${sorted.length === 1 ? "the cell" : `${sorted.length} cells`} (player / game / variant / framing) ${named}${more}, and imported and live decisions may not share a one-shot cell (no analysis can resample one that mixes them); nothing was imported: give the imported decisions another player label (${where}).`,
  );
}
