import type { TopLevelSpec } from "vega-lite";
import { chartFigure } from "../chart-svg.js";
import { formatCi, formatNumber } from "../format-numbers.js";
import { html, type SafeHtml } from "../html.js";
import type { SensitivityResult } from "../report-data.js";
import { playerName } from "./provenance-section.js";
import { groupedRowHeaders } from "./row-groups.js";

/** λ̂ is clamped to [0, 20] by definition (SPEC §4), so the axis shows that whole range. */
const LAMBDA_MAX = 20;
/** The chart's plot height in px, and the height a 10 px game label needs, in λ units of that axis. */
const PLOT_HEIGHT = 240;
const LABEL_GAP = (12 / PLOT_HEIGHT) * LAMBDA_MAX;

/**
 * Where each single-game label sits: beside its point, unless that would overlap the label below it in
 * the same (player, framing) column — λ̂ of several games is often the same near 0 or at the cap — in
 * which case the labels stack, in the order of their points, one line apart, kept inside [0, LAMBDA_MAX].
 */
export function labelPositions(values: readonly number[]): number[] {
  const order = values
    .map((v, i) => [Math.min(Math.max(v, 0), LAMBDA_MAX), i] as const)
    .sort((a, b) => a[0] - b[0]);
  const placed = order.map(([v]) => v);
  for (let k = 1; k < placed.length; k++)
    placed[k] = Math.max(placed[k] as number, (placed[k - 1] as number) + LABEL_GAP);
  // A stack that ran past the cap moves down as a whole, as far as its lowest label allows.
  const over = (placed[placed.length - 1] ?? 0) - LAMBDA_MAX;
  if (over > 0) {
    placed[placed.length - 1] = LAMBDA_MAX;
    for (let k = placed.length - 2; k >= 0; k--)
      placed[k] = Math.min(placed[k] as number, (placed[k + 1] as number) - LABEL_GAP);
  }
  const out = new Array<number>(values.length);
  order.forEach(([, i], k) => {
    out[i] = placed[k] as number;
  });
  return out;
}

export function sensitivityChartSpec(result: SensitivityResult): TopLevelSpec {
  const x = { field: "framing", type: "nominal", title: "Framing", axis: { labelAngle: -30 } } as const;
  const xOffset = { field: "player", type: "nominal" } as const;
  const y = {
    field: "lambda",
    type: "quantitative" as const,
    title: "Payoff sensitivity λ",
    scale: { domain: [0, LAMBDA_MAX], clamp: true },
  };
  const players = new Set([...result.pooled, ...result.cells].map((r) => r.player)).size;
  const pooledRows = result.pooled.map((p) => ({
    kind: "pooled",
    player: p.player,
    framing: p.framing,
    lambda: p.lambda.estimate,
    lo: p.lambda.ci[0],
    hi: p.lambda.ci[1],
  }));
  const columns = new Map<string, { player: string; game: string; framing: string; lambda: number }[]>();
  for (const c of result.cells) {
    if (c.lambda === null) continue;
    const key = JSON.stringify([c.player, c.framing]);
    columns.set(key, [...(columns.get(key) ?? []), { ...c, lambda: c.lambda }]);
  }
  const cellRows = [...columns.values()].flatMap((column) => {
    const labelAt = labelPositions(column.map((c) => c.lambda));
    return column.map((c, i) => ({
      kind: "cell",
      player: c.player,
      game: c.game,
      short: shortGame(c.game),
      framing: c.framing,
      lambda: c.lambda,
      label_lambda: labelAt[i],
    }));
  });
  const pooledOnly = { filter: "datum.kind === 'pooled'" };
  // Colour and shape over one explicit domain, so the chart has one legend of coloured shapes.
  const player = {
    field: "player",
    type: "nominal",
    title: "Player",
    scale: { domain: [...new Set([...result.pooled, ...result.cells].map((r) => r.player))].sort() },
  } as const;
  return {
    title: "Payoff sensitivity λ by framing",
    // `for: "position"`: the step sizes each framing slot, not each player offset within it.
    width: { step: 28 * Math.max(1, players) + 20, for: "position" },
    height: PLOT_HEIGHT,
    data: { values: [...cellRows, ...pooledRows] },
    layer: [
      {
        transform: [{ filter: "datum.kind === 'cell'" }],
        // Hollow and smaller than the pooled dots, but opaque: a see-through stroke loses its contrast.
        mark: { type: "point", size: 30, opacity: 1 },
        encoding: {
          x,
          xOffset,
          y,
          color: player,
          // A shape per player as well as a colour: a greyscale print keeps the players apart.
          shape: player,
        },
      },
      {
        // Each single-game point is labelled with its game's initials (legend under the chart), stacked
        // where they meet. One ink for all labels (the dashboard's dark theme swaps it for a light one).
        transform: [{ filter: "datum.kind === 'cell'" }],
        mark: { type: "text", align: "left", baseline: "middle", dx: 5, fontSize: 10, color: "#444" },
        encoding: { x, xOffset, y: { ...y, field: "label_lambda" }, text: { field: "short" } },
      },
      {
        transform: [pooledOnly],
        // A rule, not vega-lite's errorbar: the errorbar composite ignores xOffset and would not sit on its dot.
        mark: { type: "rule", strokeWidth: 2 },
        encoding: { x, xOffset, y: { ...y, field: "lo" }, y2: { field: "hi" }, color: player },
      },
      {
        transform: [pooledOnly],
        mark: { type: "point", filled: true, size: 70, opacity: 1 },
        encoding: {
          x,
          xOffset,
          y,
          color: player,
          shape: player,
        },
      },
    ],
  };
}

/** A game's initials (prisoners-dilemma → PD), the label of its point in the λ chart. */
export function shortGame(game: string): string {
  return game
    .split("-")
    .map((w) => w.charAt(0).toUpperCase())
    .join("");
}

/** λ per (player, framing): the pooled fit with its interval, then λ̂ of every game. */
function lambdaTable(result: SensitivityResult, imported: ReadonlyMap<string, string>): SafeHtml {
  const games = [...new Set(result.cells.map((c) => c.game))].sort();
  const keys = [
    ...new Map(
      [...result.pooled, ...result.cells].map((r) => [JSON.stringify([r.player, r.framing]), r]),
    ).values(),
  ];
  const headers = groupedRowHeaders(keys, [(k) => k.player], (k) => playerName(k.player, imported));
  const rows = keys.map((k, r) => {
    const pooled = result.pooled.find((p) => p.player === k.player && p.framing === k.framing);
    const perGame = games.map(
      (g) =>
        result.cells.find((c) => c.player === k.player && c.framing === k.framing && c.game === g)?.lambda ??
        null,
    );
    return html`<tr>${headers[r] as SafeHtml}<th>${k.framing}</th><td>${pooled ? formatNumber(pooled.lambda.estimate, 2) : "—"}</td><td>${pooled ? formatCi(pooled.lambda.ci, 2) : "—"}</td>${perGame.map((l) => html`<td>${formatNumber(l, 2)}</td>`)}</tr>`;
  });
  return html`<h3>λ values</h3><table class="grouped">
<thead><tr><th>Player</th><th>Framing</th><th class="num">Pooled λ</th><th class="num">95% CI</th>${games.map((g) => html`<th class="num" title="${g}">${shortGame(g)}</th>`)}</tr></thead>
<tbody>${rows}</tbody></table>
<p class="note">Game columns: ${games.map((g) => `${shortGame(g)} = ${g}`).join(", ")}.</p>`;
}

export async function sensitivitySection(
  result: SensitivityResult | null | undefined,
  imported: ReadonlyMap<string, string> = new Map(),
): Promise<SafeHtml> {
  const empty = !result || (result.pooled.length === 0 && result.cells.every((c) => c.lambda === null));
  const body = empty
    ? html`<p class="no-data">No payoff-sensitivity estimates are available for this record.</p>`
    : await chartFigure(
        sensitivityChartSpec(result),
        "How strongly the payoffs drive each player's choice under each framing (logit response, capped at 20). " +
          "Each player has a colour and a shape. Filled marks with whiskers: λ fitted across all games with its 95% " +
          "interval; hollow marks: λ̂ of single games, labelled with the game's initials. λ near 0 means the choice ignores the payoffs; dots at " +
          "the same height across framings mean the story did not change how much the payoffs matter.",
      );
  const table = empty || !result ? html`` : lambdaTable(result, imported);
  return html`<section id="sensitivity"><h2>Payoff sensitivity</h2>${body}${table}</section>`;
}
