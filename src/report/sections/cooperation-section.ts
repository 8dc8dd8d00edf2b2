import type { TopLevelSpec } from "vega-lite";
import { chartFigure } from "../chart-svg.js";
import { formatCi, formatNumber } from "../format-numbers.js";
import { html, type SafeHtml } from "../html.js";
import type { CooperationCell } from "../report-data.js";
import { playerName } from "./provenance-section.js";
import { groupedRowHeaders } from "./row-groups.js";

/**
 * One panel per (player, game), one bar per framing with its interval. A rate of 0 is drawn as a tick on
 * the axis, a visible bar rather than an empty panel, and the number of decisions behind each bar is
 * written above it (the rate axis runs to 1.15 to leave that line room; its ticks
 * stop at 1).
 */
export function cooperationChartSpec(cells: readonly CooperationCell[]): TopLevelSpec {
  const framing = { field: "framing", type: "nominal", title: "Framing", axis: { labelAngle: -30 } } as const;
  const title = "Cooperation rate";
  const rate = {
    field: "rate",
    type: "quantitative" as const,
    title,
    scale: { domain: [0, 1.15] },
    axis: { values: [0, 0.25, 0.5, 0.75, 1] },
  };
  const color = { field: "framing", type: "nominal", title: "Framing", legend: null } as const;
  return {
    title: "Cooperation rate by framing",
    data: {
      values: cells.map((c) => ({
        player: c.player,
        game: c.game,
        framing: c.framing,
        rate: c.rate,
        lo: c.ci[0],
        hi: c.ci[1],
        n: `n=${c.n}`,
      })),
    },
    facet: {
      row: { field: "player", type: "nominal", title: "Player" },
      column: { field: "game", type: "nominal", title: "Game" },
    },
    spec: {
      width: { step: 44 },
      height: 150,
      layer: [
        // Opaque, so the bar's colour keeps its full contrast with the page (chart-palette.ts).
        { mark: { type: "bar" }, encoding: { x: framing, y: rate, color } },
        {
          // A rate of 0 has a bar of no height: a 3 px tick the bar's width (44 px step less the band
          // padding) draws it. Only there, since every tick is bytes in a report of many cells.
          transform: [{ filter: "datum.rate === 0" }],
          mark: { type: "tick", thickness: 3, size: 40 },
          encoding: { x: framing, y: rate, color },
        },
        {
          mark: { type: "errorbar", ticks: true, color: "#222" },
          encoding: { x: framing, y: { field: "lo", type: "quantitative", title }, y2: { field: "hi" } },
        },
        {
          mark: { type: "text", baseline: "bottom", dy: -3, fontSize: 10, color: "#222" },
          encoding: { x: framing, y: { field: "hi", type: "quantitative", title }, text: { field: "n" } },
        },
      ],
    },
  };
}

/**
 * The chart's numbers: each cell's cooperation rate, its 95% interval and the decisions behind it (n), one
 * row per (player, game), one column per framing. A reader who cannot see the bars reads them here.
 */
function cellTable(cells: readonly CooperationCell[], imported: ReadonlyMap<string, string>): SafeHtml {
  const framings = [...new Set(cells.map((c) => c.framing))].sort();
  const units = [...new Map(cells.map((c) => [JSON.stringify([c.player, c.game]), c])).values()];
  const byCell = new Map(cells.map((c) => [JSON.stringify([c.player, c.game, c.framing]), c]));
  const headers = groupedRowHeaders(units, [(u) => u.player], (u) => playerName(u.player, imported));
  const value = (c: CooperationCell | undefined) =>
    c === undefined ? "—" : `${formatNumber(c.rate)} ${formatCi(c.ci)} n=${c.n}`;
  const rows = units.map(
    (u, r) =>
      html`<tr>${headers[r] as SafeHtml}<th>${u.game}</th>${framings.map((f) => html`<td>${value(byCell.get(JSON.stringify([u.player, u.game, f])))}</td>`)}</tr>`,
  );
  return html`<h3>Cooperation rate, 95% interval and decisions (n) per cell</h3><table class="grouped">
<thead><tr><th>Player</th><th>Game</th>${framings.map((f) => html`<th class="num">${f}</th>`)}</tr></thead>
<tbody>${rows}</tbody></table>`;
}

/**
 * The cooperation chart and its numbers. `uncooperative` says which one-shot games have no cooperative action
 * (battle-of-the-sexes, matching-pennies): they are in no bar, and a record of only them has decisions but
 * no rate, which the section must not call "no decisions".
 */
export async function cooperationSection(
  cells: readonly CooperationCell[],
  imported: ReadonlyMap<string, string> = new Map(),
  uncooperative?: string,
): Promise<SafeHtml> {
  const body =
    cells.length === 0
      ? uncooperative
        ? html`<p class="no-data">No cooperation rates to show: ${uncooperative}.</p>`
        : html`<p class="no-data">No one-shot decisions were recorded, so there are no cooperation rates to show.</p>`
      : await chartFigure(
          cooperationChartSpec(cells),
          "One panel per player (rows) and game (columns); each bar is the share of decisions that chose the " +
            "cooperative action under one framing, with its 95% bootstrap interval and, above it, the number of " +
            "decisions (n) behind it. Bars of equal height in a " +
            "panel mean the story did not change the choice; a gap wider than the whiskers means it did.",
        );
  const sizes = cells.length === 0 ? html`` : cellTable(cells, imported);
  const left =
    cells.length > 0 && uncooperative ? html`<p class="note">Not shown: ${uncooperative}.</p>` : html``;
  return html`<section id="cooperation"><h2>Cooperation by framing</h2>${body}${sizes}${left}</section>`;
}
