import type { TopLevelSpec } from "vega-lite";
import { printable } from "../../queries/format.js";
import { chartFigure } from "../chart-svg.js";
import { ciExcludesZero, formatCi, formatNumber } from "../format-numbers.js";
import { html, isolated, type SafeHtml } from "../html.js";
import { labelListHtml } from "../label-list.js";
import type { EstimateWithCi, RobustnessResult, RobustnessValues } from "../report-data.js";
import { resamplingUnits } from "../resampling-units.js";
import { playerName } from "./provenance-section.js";

export function robustnessChartSpec(result: RobustnessResult): TopLevelSpec {
  const x = { field: "game", type: "nominal", title: "Game", axis: { labelAngle: -30 } } as const;
  const xOffset = { field: "player", type: "nominal" } as const;
  const title = "Robustness R";
  // Colour and shape over one explicit domain, so the chart has one legend of coloured shapes.
  const player = {
    field: "player",
    type: "nominal",
    title: "Player",
    scale: { domain: [...new Set(result.games.map((g) => g.player))].sort() },
  } as const;
  return {
    title: "Robustness R by game and player",
    // `for: "position"`: the step sizes each game slot; without it vega-lite sizes each offset (player) slot.
    width: { step: 28 * Math.max(1, new Set(result.games.map((g) => g.player)).size) + 20, for: "position" },
    height: 240,
    data: {
      values: result.games.map((g) => ({
        player: g.player,
        game: g.game,
        R: g.R.estimate,
        lo: g.R.ci[0],
        hi: g.R.ci[1],
      })),
    },
    layer: [
      {
        // A rule, not vega-lite's errorbar: the errorbar composite ignores xOffset and would not sit on its dot.
        mark: { type: "rule", strokeWidth: 2 },
        encoding: {
          x,
          xOffset,
          y: { field: "lo", type: "quantitative", title },
          y2: { field: "hi" },
          color: player,
        },
      },
      {
        mark: { type: "point", filled: true, size: 70, opacity: 1 },
        encoding: {
          x,
          xOffset,
          y: { field: "R", type: "quantitative", title, scale: { domain: [0, 1] } },
          color: player,
          // A shape per player as well as a colour: a greyscale print keeps the players apart.
          shape: player,
        },
      },
    ],
  };
}

/**
 * The planned shift, the primary measure: one row per (player, game) and per player over all games, the
 * estimate as a dot and its 95% interval as a bar, with the line of no effect at 0.
 */
export function shiftForestSpec(result: RobustnessResult): TopLevelSpec {
  const rows = [
    ...result.games.map((g) => ({ label: `${g.player} · ${g.game}`, kind: "game", shift: g.shift })),
    ...result.players.map((p) => ({ label: `${p.player} · all games`, kind: "player", shift: p.shift })),
  ].flatMap(({ label, kind, shift }) =>
    shift === null ? [] : [{ label, kind, shift: shift.estimate, lo: shift.ci[0], hi: shift.ci[1] }],
  );
  // Vega-Lite writes an axis title into an expression it builds (the marks' description), where a line
  // break in a framing's name ends the string and the chart fails to compile: names are shown escaped.
  const [first, second] = result.framings.map(printable);
  const y = { field: "label", type: "nominal", title: null, sort: null, axis: { labelLimit: 0 } } as const;
  const title = `Shift: ${second ?? "?"} − ${first ?? "?"}`;
  return {
    title: `Planned shift ${first ?? ""} → ${second ?? ""} with 95% intervals`,
    width: 360,
    height: { step: 16 },
    data: { values: rows },
    layer: [
      { mark: { type: "rule", color: "#888", strokeDash: [4, 3] }, encoding: { x: { datum: 0 } } },
      {
        mark: { type: "rule", strokeWidth: 2 },
        encoding: {
          y,
          x: { field: "lo", type: "quantitative", title, scale: { domain: [-1, 1] } },
          x2: { field: "hi" },
          color: { field: "kind", type: "nominal", legend: null, scale: { range: ["#3a6ea5", "#222"] } },
        },
      },
      {
        mark: { type: "point", filled: true, size: 50 },
        encoding: {
          y,
          x: { field: "shift", type: "quantitative", title },
          color: { field: "kind", type: "nominal", legend: null },
        },
      },
    ],
  };
}

function shiftCells(shift: EstimateWithCi | null): SafeHtml {
  if (shift === null)
    return html`<td class="num" data-label="Shift">—</td><td class="num" data-label="Shift 95% CI">—</td><td data-label="CI excludes 0">—</td>`;
  const verdict = ciExcludesZero(shift.ci) ? "yes" : "no";
  return html`<td class="num" data-label="Shift">${formatNumber(shift.estimate)}</td><td class="num" data-label="Shift 95% CI">${formatCi(shift.ci)}</td><td data-label="CI excludes 0">${verdict}</td>`;
}

function valueRow(label: SafeHtml, values: RobustnessValues): SafeHtml {
  return html`<tr>${label}<td class="num" data-label="R">${formatNumber(values.R.estimate)}</td><td class="num" data-label="R 95% CI">${formatCi(values.R.ci)}</td>${shiftCells(values.shift)}</tr>`;
}

function robustnessTable(result: RobustnessResult, imported: ReadonlyMap<string, string>): SafeHtml {
  const rows = [
    ...result.games.map((g) =>
      valueRow(
        html`<td data-label="Player">${playerName(g.player, imported)}</td><td data-label="Game">${g.game}</td>`,
        g,
      ),
    ),
    ...result.players.map((p) =>
      valueRow(
        html`<td data-label="Player">${playerName(p.player, imported)}</td><td data-label="Game"><em>all games</em></td>`,
        p,
      ),
    ),
    valueRow(html`<td colspan="2" data-label="Player"><strong>Pooled</strong></td>`, result.pooled),
  ];
  // data-label: under 40rem the rows stack, each value beside its column name (report-style.ts).
  return html`<table class="stack">
<thead><tr><th>Player</th><th>Game</th><th class="num">R</th><th class="num">95% CI</th><th class="num">Shift</th><th class="num">95% CI</th><th>CI excludes 0</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function settingsSentence(result: RobustnessResult): SafeHtml {
  const [first, second] = result.framings;
  // The shift is a difference of cooperation rates: said only where some game has a cooperative action.
  const shift =
    first !== undefined && second !== undefined && result.games.some((g) => g.shift !== null)
      ? html` Shift = cooperation under <strong>${isolated(second)}</strong> minus cooperation under <strong>${isolated(first)}</strong>.`
      : html``;
  return html`<p class="settings">Framings compared: ${labelListHtml(result.framings)}.${shift} Intervals: ${result.bootstrap.toLocaleString("en-US")} bootstrap replicates resampling by ${resamplingUnits(result)}, seed ${result.seed}; attenuation ${result.attenuation}.</p>`;
}

/** The order effect per player: how often the first-listed action was chosen, against ½. */
function orderEffectNote(result: RobustnessResult): SafeHtml {
  const rows = result.order_effect ?? [];
  if (rows.length === 0) return html``;
  const items = rows.map(
    (o) =>
      html`<li>${isolated(o.player)}: ${formatNumber(o.first_listed_rate.estimate)} of ${o.decisions.toLocaleString("en-US")} decisions, 95% CI ${formatCi(o.first_listed_rate.ci)}</li>`,
  );
  return html`<h3>Order effect</h3><p class="note">Study trials list the actions in every order equally often within each cell, so an agent without a preference for the first-listed action chooses it in ½ of two-action decisions. An interval excluding ½ is a primacy (above) or recency (below) bias.</p><ul>${items}</ul>`;
}

export async function robustnessSection(
  result: RobustnessResult | null | undefined,
  imported: ReadonlyMap<string, string> = new Map(),
  missing?: string,
): Promise<SafeHtml> {
  if (!result || result.games.length === 0) {
    const why = missing
      ? html`Robustness not computed: ${missing}`
      : html`No game was played under two or more framings, so robustness cannot be computed.`;
    return html`<section id="robustness"><h2>Robustness</h2><p class="no-data">${why}</p></section>`;
  }
  const forest = result.games.some((g) => g.shift !== null)
    ? await chartFigure(
        shiftForestSpec(result),
        "The planned shift (the primary measure): the second framing's cooperation rate minus the first's, per " +
          "player and game (blue) and over all of a player's games (in the colour of the text), with 95% " +
          "bootstrap intervals. A bar " +
          "that does not cross the dashed line at 0 is a framing effect beyond sampling noise.",
      )
    : html``;
  const figure = await chartFigure(
    robustnessChartSpec(result),
    "Each mark is one player's robustness R in one game with its 95% interval (test inversion); each player " +
      "has a colour and a shape. R = 1 means the " +
      "distribution of choices was identical under every framing; lower values mean the story moved the " +
      "choices (R = 0 would be completely different behaviour).",
  );
  return html`<section id="robustness"><h2>Robustness</h2>${settingsSentence(result)}${forest}${figure}
<h3>R and cooperation shift</h3>${robustnessTable(result, imported)}${orderEffectNote(result)}
<p class="note">Rows marked <em>all games</em> average the player's games with equal weight; the pooled row averages every (player, game). A shift whose interval excludes 0 is a framing effect distinguishable from sampling noise.</p></section>`;
}
