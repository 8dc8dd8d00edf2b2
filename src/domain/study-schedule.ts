import { createRng, shuffled } from "./rng.js";

/**
 * The permuted-block schedule of a study (SPEC §4 design, issue 4): a player's trials come in blocks that
 * each hold every cell exactly once, in an order drawn from the study's seed, the player and the block
 * number. Cells therefore stay balanced at any stopping point, and the agent never chooses its condition.
 */
export function scheduledCell<Cell>(
  cells: readonly Cell[],
  studySeed: string,
  player: string,
  trialIndex: number,
): Cell {
  if (cells.length === 0) throw new Error("A study needs at least one cell to schedule.");
  const block = Math.floor(trialIndex / cells.length);
  const order = shuffled(createRng(`${studySeed}:${player}:block:${block}`), cells);
  return order[trialIndex % cells.length] as Cell;
}
