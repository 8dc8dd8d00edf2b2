import type { TopLevelSpec } from "vega-lite";
import { opponentLabel } from "../../domain/opponent-label.js";
import { chartFigure } from "../chart-svg.js";
import { formatCi, formatComprehensionRound, formatNumber } from "../format-numbers.js";
import { html, type SafeHtml } from "../html.js";
import type { RepeatedCell } from "../report-data.js";
import { playerName } from "./provenance-section.js";

/** The comprehension threshold t of SPEC §6. */
const COMPREHENSION_THRESHOLD = 0.9;

/** Two lines, split again in the facet header, so long names are not cut off. */
function cellLabel(c: RepeatedCell): string {
  return `${c.player} · ${c.framing}\n${c.game} (${c.variant}) vs ${opponentLabel(c.opponent, c.opponent_params)}`;
}

export function comprehensionChartSpec(cells: readonly RepeatedCell[]): TopLevelSpec {
  const values = cells.flatMap((c) =>
    c.curve.map((p) => ({
      cell: cellLabel(c),
      round: p.round,
      success_share: p.success_share,
      lo: p.lo ?? null,
      hi: p.hi ?? null,
    })),
  );
  return {
    title: "Opponent comprehension",
    data: { values },
    facet: {
      field: "cell",
      type: "nominal",
      title: null,
      sort: null,
      header: { labelExpr: "split(datum.value, '\\n')" },
    },
    columns: 3,
    // Each panel draws its own round axis: a shared one would sit at the foot of every column, under
    // the empty places of a last row that is not full.
    resolve: { axis: { x: "independent" } },
    spec: {
      width: 230,
      height: 130,
      layer: [
        {
          mark: { type: "rule", strokeDash: [4, 3], color: "#b5443b" },
          encoding: { y: { datum: COMPREHENSION_THRESHOLD } },
        },
        {
          mark: { type: "line", point: true, color: "#3a6ea5" },
          encoding: {
            x: {
              field: "round",
              type: "quantitative",
              title: "Round",
              // Rounds count from 1: there is no round 0 to draw.
              scale: { domainMin: 1, nice: false },
              axis: { format: "d", tickMinStep: 1 },
            },
            y: {
              field: "success_share",
              type: "quantitative",
              title: "Success share from round on",
              scale: { domain: [0, 1] },
            },
          },
        },
        {
          // The 95% pointwise interval over the cell's matches (none with a single match); drawn last so
          // the layers above keep their places for whoever reads the SVG.
          mark: { type: "area", opacity: 0.18, color: "#3a6ea5" },
          transform: [{ filter: "datum.lo != null" }],
          encoding: {
            x: { field: "round", type: "quantitative" },
            y: { field: "lo", type: "quantitative" },
            y2: { field: "hi" },
          },
        },
      ],
    },
  };
}

/**
 * The curves' numbers, for a reader who cannot see them: one row per cell, one column per round, the
 * success share with its 95% band. Folded away (a details element): they are many, and the picture and
 * the table below say what most readers need.
 */
function curveTable(cells: readonly RepeatedCell[], imported: ReadonlyMap<string, string>): SafeHtml {
  const rounds = Math.max(...cells.map((c) => c.curve.length));
  const point = (p: RepeatedCell["curve"][number] | undefined) =>
    p === undefined
      ? "—"
      : p.lo === undefined || p.hi === undefined
        ? formatNumber(p.success_share, 2)
        : `${formatNumber(p.success_share, 2)} ${formatCi([p.lo, p.hi], 2)}`;
  const rows = cells.map(
    (c) =>
      html`<tr><th>${playerName(c.player, imported)}</th><th>${c.framing}</th><th>${c.game} (${c.variant}) vs ${c.opponent}</th>${Array.from({ length: rounds }, (_, i) => html`<td>${point(c.curve.find((p) => p.round === i + 1))}</td>`)}</tr>`,
  );
  return html`<details><summary>The curves' numbers: success share from each round on, with its 95% band</summary><table class="grouped">
<thead><tr><th>Player</th><th>Framing</th><th>Game (variant) vs opponent</th>${Array.from({ length: rounds }, (_, i) => html`<th class="num">Round ${i + 1}</th>`)}</tr></thead>
<tbody>${rows}</tbody></table></details>`;
}

function repeatedTable(cells: readonly RepeatedCell[], imported: ReadonlyMap<string, string>): SafeHtml {
  const rows = cells.map(
    (c) =>
      html`<tr><td>${playerName(c.player, imported)}</td><td>${c.game}</td><td>${c.variant}</td><td>${c.framing}</td><td>${opponentLabel(c.opponent, c.opponent_params)}</td><td class="num">${c.matches}</td><td class="num">${formatNumber(c.mean_total_points, 1)}</td><td class="num">${formatNumber(c.mean_cooperation_rate)}</td><td class="num">${formatComprehensionRound(c.mean_comprehension_round, c.curve.length)}</td></tr>`,
  );
  return html`<table class="wide">
<thead><tr><th>Player</th><th>Game</th><th>Variant</th><th>Framing</th><th>Opponent</th><th class="num">Matches</th><th class="num">Mean points</th><th class="num">Mean cooperation</th><th class="num">Comprehension m (mean)</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** Repeated play: comprehension curves, then one row per cell, an imported player marked with its source. */
export async function repeatedSection(
  cells: readonly RepeatedCell[],
  imported: ReadonlyMap<string, string> = new Map(),
): Promise<SafeHtml> {
  if (cells.length === 0) {
    return html`<section id="repeated"><h2>Repeated play</h2><p class="no-data">No repeated matches were played, so there is no repeated-play data to show.</p></section>`;
  }
  const withCurves = cells.filter((c) => c.curve.length > 0);
  const figure =
    withCurves.length === 0
      ? html`<p class="no-data">No round-by-round outcomes were recorded, so there are no comprehension curves.</p>`
      : await chartFigure(
          comprehensionChartSpec(withCurves),
          "One panel per cell: player · framing over game (variant) vs opponent. The line is the share of rounds " +
            "from that round to the end in which the player did at least as well as matching the opponent's move, " +
            "averaged over matches; the shaded band is its 95% interval over the matches (mean ± 1.96 standard " +
            "errors; none with a single match). The player has understood the opponent from the first round where the line " +
            "stays above the dashed threshold (0.9); a line that rises early means quick comprehension.",
        );
  const numbers = withCurves.length === 0 ? html`` : curveTable(withCurves, imported);
  return html`<section id="repeated"><h2>Repeated play</h2>${figure}${numbers}${repeatedTable(cells, imported)}
<p class="note">Comprehension m: the first round from which at least 90% of the remaining rounds succeed, averaged over matches; a match that never gets there counts as one round past its end, and a cell where no match got there reads “never”.</p></section>`;
}
