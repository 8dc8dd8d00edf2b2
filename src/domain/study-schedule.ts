import { createRng, shuffled } from "./rng.js";

/**
 * The permuted-block schedule of a study (SPEC §4 design): a player's trials come in blocks that
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
  const order = scheduledBlock(cells, studySeed, player, Math.floor(trialIndex / cells.length));
  return order[trialIndex % cells.length] as Cell;
}

/** The cells of one block of a player's schedule, in the order they are played. */
export function scheduledBlock<Cell>(
  cells: readonly Cell[],
  studySeed: string,
  player: string,
  block: number,
): Cell[] {
  return shuffled(createRng(`${studySeed}:${player}:block:${block}`), cells);
}

/** All orderings of the items (k! of them; catalog games have at most a handful of actions). */
function orderings<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  return items.flatMap((item, i) =>
    orderings([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/**
 * The action order of a study trial, balanced within its cell: the cell's v-th trial (its
 * v-th block, by `scheduledCell`) takes the (v mod k!)-th order of a seeded shuffle of all k! orders,
 * reshuffled every k! visits. After every k! trials of a cell each order was listed exactly once, so a
 * bias toward the first-listed action cancels inside every cell instead of adding noise, and can be
 * estimated (the `order_effect` of robustness).
 */
export function scheduledActionOrder<A>(
  actions: readonly A[],
  studySeed: string,
  player: string,
  cellKey: string,
  trialIndex: number,
  cellCount: number,
): A[] {
  const visit = Math.floor(trialIndex / cellCount);
  const all = orderings(actions);
  const round = Math.floor(visit / all.length);
  const order = shuffled(createRng(`${studySeed}:${player}:order:${cellKey}:${round}`), all);
  return order[visit % all.length] as A[];
}
