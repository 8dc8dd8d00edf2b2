/**
 * One player's cells (game × framing) and actions, numbered in the order the tallies first name them, so
 * that each tally row is held as a few integers whatever its strings.
 */
export class CellActionIndex<Cell extends { readonly game: string; readonly framing: string }> {
  readonly cells: Cell[] = [];
  readonly actions: string[] = [];
  private readonly cellIndex = new Map<string, Map<string, number>>(); // game → framing → cell
  private readonly actionIndex = new Map<string, number>();

  constructor(private readonly newCell: (game: string, framing: string) => Cell) {}

  /** The cell's number, a new one (and a new cell) when first named. */
  cellOf(game: string, framing: string): number {
    let byFraming = this.cellIndex.get(game);
    if (byFraming === undefined) {
      byFraming = new Map();
      this.cellIndex.set(game, byFraming);
    }
    let c = byFraming.get(framing);
    if (c === undefined) {
      c = this.cells.length;
      byFraming.set(framing, c);
      this.cells.push(this.newCell(game, framing));
    }
    return c;
  }

  /** The action's number, a new one when first named. */
  actionOf(action: string): number {
    let a = this.actionIndex.get(action);
    if (a === undefined) {
      a = this.actions.length;
      this.actionIndex.set(action, a);
      this.actions.push(action);
    }
    return a;
  }
}
