import type { TopLevelSpec } from "vega-lite";
import { printable } from "../../queries/format.js";
import type { RobustnessResult } from "../report-data.js";

/** One line of a forest plot: an estimate with its 95% interval, for a (player, game), a player or the pool. */
export interface ForestRow {
  label: string;
  level: "game" | "player" | "pooled";
  player: string | null;
  game: string | null;
  estimate: number;
  lo: number;
  hi: number;
}

/**
 * The rows of the R or the shift forest plot, in reading order: every (player, game), then each player
 * over its games, then the pool. A shift row is left out where the game has no cooperative action.
 */
export function forestRows(result: RobustnessResult, statistic: "R" | "shift"): ForestRow[] {
  const rows: ForestRow[] = [];
  const add = (
    label: string,
    level: ForestRow["level"],
    player: string | null,
    game: string | null,
    v: RobustnessResult["pooled"],
  ) => {
    const value = statistic === "R" ? v.R : v.shift;
    if (value)
      rows.push({ label, level, player, game, estimate: value.estimate, lo: value.ci[0], hi: value.ci[1] });
  };
  for (const g of result.games) add(`${g.player} · ${g.game}`, "game", g.player, g.game, g);
  for (const p of result.players) add(`${p.player} · all games`, "player", p.player, null, p);
  add("pooled", "pooled", null, null, result.pooled);
  return rows;
}

export interface ForestOptions {
  title: string;
  axisTitle: string;
  /** The x range; the estimates and intervals of R always lie in [0, 1], a shift in [−1, 1]. */
  domain: [number, number];
  /** A dashed vertical reference line: 1 for R (no framing effect), 0 for a shift. */
  reference: number;
  width: number;
}

/** A forest plot: one row per estimate, a dot on its 95% interval, a dashed line at "no effect". */
export function forestChartSpec(rows: readonly ForestRow[], options: ForestOptions): TopLevelSpec {
  const y = { field: "label", type: "nominal", title: null, sort: null, axis: { labelLimit: 0 } } as const;
  // An axis title enters an expression Vega-Lite builds, where a raw line break (a framing's name may
  // hold one) fails to compile: titles are shown escaped.
  const x = {
    type: "quantitative",
    title: printable(options.axisTitle),
    scale: { domain: options.domain },
  } as const;
  const level = {
    field: "level",
    type: "nominal",
    title: "Level",
    scale: { domain: ["game", "player", "pooled"], range: ["#3a6ea5", "#c06c1f", "#6a3d9a"] },
  } as const;
  return {
    title: printable(options.title),
    width: options.width,
    height: { step: 22 },
    data: { values: rows.map((r) => ({ ...r })) },
    layer: [
      {
        mark: { type: "rule", strokeDash: [4, 3], color: "#888" },
        encoding: { x: { datum: options.reference } },
      },
      {
        mark: { type: "rule", strokeWidth: 2 },
        encoding: { y, x: { ...x, field: "lo" }, x2: { field: "hi" }, color: level },
      },
      {
        mark: { type: "point", filled: true, size: 70, opacity: 1, cursor: "pointer" },
        encoding: {
          y,
          x: { ...x, field: "estimate" },
          color: level,
          tooltip: [
            { field: "label", title: "Row" },
            { field: "estimate", format: ".3f", title: "Estimate" },
            { field: "lo", format: ".3f", title: "CI low" },
            { field: "hi", format: ".3f", title: "CI high" },
          ],
        },
      },
    ],
  };
}
