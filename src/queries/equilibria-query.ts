import type { Distribution, VariantId } from "../domain/types.js";
import { nashEquilibria } from "../game-theory/equilibria.js";
import type { PlayDeps } from "../play/play-deps.js";

export interface EquilibriaReport {
  game: string;
  variant: string;
  actions: string[];
  payoffs: { row: number[][]; column: number[][] };
  degenerate: boolean;
  note: string | null;
  equilibria: {
    kind: "pure" | "mixed";
    row: Distribution;
    column: Distribution;
    payoffs: { row: number; column: number };
  }[];
}

/** The `equilibria` tool and `analyze equilibria`: every Nash equilibrium of a catalog stage game. */
export function equilibriaReport(
  deps: Pick<PlayDeps, "catalog">,
  game: string,
  variant: VariantId = "base",
): EquilibriaReport {
  const stage = deps.catalog.stageGame(game, variant);
  const result = nashEquilibria(stage);
  return {
    game,
    variant,
    actions: [...stage.actions],
    payoffs: { row: stage.u1.map((r) => [...r]), column: stage.u2.map((r) => [...r]) },
    degenerate: result.degenerate,
    note: result.note,
    equilibria: result.equilibria.map((e) => ({
      kind: e.kind,
      row: e.row,
      column: e.column,
      payoffs: e.payoffs,
    })),
  };
}

export function equilibriaText(report: EquilibriaReport): string {
  const strategy = (d: Distribution) =>
    Object.entries(d)
      .filter(([, p]) => p > 0)
      .map(([a, p]) => (p === 1 ? a : `${a} ${+p.toFixed(9)}`))
      .join(" + ");
  const lines = report.equilibria.map(
    (e, i) =>
      `${i + 1}. ${e.kind}: row plays ${strategy(e.row)}, column plays ${strategy(e.column)}; payoffs ${+e.payoffs.row.toFixed(9)}, ${+e.payoffs.column.toFixed(9)}`,
  );
  return [
    `Nash equilibria of ${report.game} (${report.variant})${report.degenerate ? " — degenerate game" : ""}:`,
    ...lines,
    ...(report.note ? [report.note] : []),
  ].join("\n");
}
