import type { TopLevelSpec } from "vega-lite";
import { opponentLabel } from "../domain/opponent-label.js";
import { confidenceLevel } from "../queries/format.js";
import { formatComprehensionRound } from "../report/format-numbers.js";
import { resamplingUnits } from "../report/resampling-units.js";
import { ROBUSTNESS_COVERAGE } from "../report/robustness-coverage.js";
import { cooperationChartSpec } from "../report/sections/cooperation-section.js";
import { forestChartSpec, forestRows } from "../report/sections/forest-chart.js";
import { comprehensionChartSpec } from "../report/sections/repeated-section.js";
import { sensitivityChartSpec } from "../report/sections/sensitivity-section.js";
import type { ClickedDatum } from "./chart-view.js";
import type { DashboardData } from "./dashboard-data.js";
import { el, formatNumber } from "./dom.js";
import { type Filters, passes } from "./filters.js";

/** A chart to draw into a figure once the section is in the page; `onClick` gets the clicked cell. */
export interface PendingChart {
  container: HTMLElement;
  spec: TopLevelSpec;
  onClick?: (datum: ClickedDatum) => void;
}

export interface SectionContext {
  data: DashboardData;
  filters: Filters;
  /** Usable width in CSS pixels (the host's container, else the window). */
  width: number;
  charts: PendingChart[];
  /** `opponent` tells apart the repeated-play cells of one player, game and framing. */
  openCell(cell: ClickedDatum & { variant?: string; opponent?: string }): void;
  /** The group chosen in the leaderboard ("" for all): the player filter when groups are players. */
  selectedGroup: string;
  /** Filters every view to one group (the leaderboard's click), or back to all with "". */
  selectGroup(group: string): void;
}

/** A chart and its caption; a click on a mark opens its cell's matches, or does what `click` says. */
export function figure(
  ctx: SectionContext,
  name: string,
  spec: TopLevelSpec,
  caption: string,
  click: boolean | ((datum: ClickedDatum) => void) = true,
) {
  const container = el("div", { class: "chart", "data-chart": name });
  const onClick =
    typeof click === "function" ? click : click ? (d: ClickedDatum) => ctx.openCell(d) : undefined;
  // The chart's accessible name (vega puts a spec's description on its container): its caption, not
  // vega-lite's "Vega visualization", which a screen reader would read for every chart alike.
  ctx.charts.push({ container, spec: { ...spec, description: caption }, onClick });
  return el("figure", {}, container, el("figcaption", {}, caption));
}

/**
 * A table row that opens something: a mouse click, or Enter or Space once it has the keyboard's focus (a
 * row is in the tab order and announced as a button), so every drill-down works without a mouse.
 */
export function drillRow(attributes: Record<string, string>, cells: HTMLElement[], open: () => void) {
  const row = el("tr", { ...attributes, class: "clickable", tabindex: "0", role: "button" }, ...cells);
  row.addEventListener("click", open);
  row.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    // Space would scroll the page, Enter submit nothing: the row's action alone.
    event.preventDefault();
    open();
  });
  return row;
}

/**
 * A chart's marks as a table under it, folded: each row does what a click on its mark does, so the chart's
 * drill-downs are there for the keyboard (and a screen reader) too.
 */
export function chartTable(name: string, headers: string[], rows: HTMLElement[]) {
  const head = el("tr", {}, ...headers.map((h) => el("th", {}, h)));
  return el(
    "details",
    { "data-chart-table": name },
    el("summary", {}, "The chart as a table: click or press Enter on a row to list its matches"),
    el(
      "div",
      { class: "table-scroll" },
      el("table", { "data-table": name }, el("thead", {}, head), el("tbody", {}, ...rows)),
    ),
  );
}

const interval = (ci: readonly [number, number], digits: number) =>
  `[${formatNumber(ci[0], digits)}, ${formatNumber(ci[1], digits)}]`;

export function section(name: string, title: string, ...children: (Node | null)[]) {
  return el("section", { "data-section": name }, el("h2", {}, title), ...children);
}

export function cooperationSection(ctx: SectionContext): HTMLElement | null {
  const cells = ctx.data.cooperation.filter((c) => passes(ctx.filters, c));
  if (ctx.data.source !== "report") return null;
  if (cells.length === 0)
    return section(
      "cooperation",
      "Cooperation by framing",
      el("p", { class: "no-data" }, "No one-shot decisions pass these filters."),
    );
  return section(
    "cooperation",
    "Cooperation by framing",
    figure(
      ctx,
      "cooperation",
      cooperationChartSpec(cells),
      "Share of decisions that chose the cooperative action under each framing, with 95% bootstrap intervals; one panel per player and game. Click a bar (or press Enter on its row in the table below) to list its matches.",
    ),
    chartTable(
      "cooperation",
      ["Player", "Game", "Framing", "Cooperation", "95% CI", "Decisions"],
      cells.map((c) =>
        drillRow(
          { "data-cell": `${c.player}|${c.game}|${c.framing}` },
          [
            el("td", {}, c.player),
            el("td", {}, c.game),
            el("td", {}, c.framing),
            el("td", { class: "num" }, formatNumber(c.rate, 3)),
            el("td", { class: "num" }, interval(c.ci, 3)),
            el("td", { class: "num" }, String(c.n)),
          ],
          () => ctx.openCell({ player: c.player, game: c.game, framing: c.framing }),
        ),
      ),
    ),
  );
}

export function robustnessSection(ctx: SectionContext): HTMLElement | null {
  const result = ctx.data.robustness;
  if (ctx.data.source === "compare") return null;
  // What robustness left out (or why it was not computed), said where the forest plots are.
  const coverage = ctx.data.notes.find((n) => n.name === ROBUSTNESS_COVERAGE);
  if (!result) {
    return ctx.data.source === "repeated_metrics"
      ? null
      : section(
          "robustness",
          "Robustness",
          el(
            "p",
            { class: "no-data", "data-note": ROBUSTNESS_COVERAGE },
            coverage?.detail ?? "No game was played under two framings, so robustness cannot be computed.",
          ),
        );
  }
  const width = Math.max(140, Math.min(420, ctx.width - 230));
  const keep = (r: { player: string | null; game: string | null; level: string }) =>
    passes(ctx.filters, r) || r.level === "pooled";
  const rRows = forestRows(result, "R").filter(keep);
  const shiftRows = forestRows(result, "shift").filter(keep);
  const [first, second] = result.framings;
  const level = confidenceLevel(result.confidence ?? 0.95);
  const settings = el(
    "p",
    { class: "muted", "data-settings": "" },
    `Framings ${result.framings.join(" → ")}; ${result.bootstrap.toLocaleString("en-US")} bootstrap replicates by ${resamplingUnits(result)}, seed ${result.seed}.`,
  );
  return section(
    "robustness",
    "Robustness R and cooperation shift",
    settings,
    coverage ? el("p", { class: "left-out", "data-note": ROBUSTNESS_COVERAGE }, coverage.detail) : null,
    figure(
      ctx,
      "robustness-forest",
      forestChartSpec(rRows, {
        title: "Robustness R",
        axisTitle: "R = 1 − max JSD / ln 2",
        domain: [0, 1],
        reference: 1,
        width,
      }),
      `Each row: R with its ${level} interval; 1 (dashed) means identical choices under every framing. Click a row (or press Enter on it in the table below) to list its matches.`,
    ),
    shiftRows.length === 0
      ? el("p", { class: "no-data" }, "No game has a cooperative action, so there is no shift.")
      : figure(
          ctx,
          "shift-forest",
          forestChartSpec(shiftRows, {
            title: `Cooperation shift (${second ?? "?"} − ${first ?? "?"})`,
            axisTitle: "Shift in cooperation rate",
            domain: [-1, 1],
            reference: 0,
            width,
          }),
          "An interval that misses 0 (dashed) is a framing effect beyond sampling noise. Click a row to list its matches.",
        ),
    chartTable(
      "robustness",
      ["Player", "Game", "R", `${level} CI`, "Shift", `${level} CI`],
      rRows.map((r) => {
        const shift = shiftRows.find((s) => s.label === r.label);
        const cells = [
          el("td", {}, r.player ?? "all players (pooled)"),
          el("td", {}, r.game ?? "all games"),
          el("td", { class: "num" }, formatNumber(r.estimate, 3)),
          el("td", { class: "num" }, interval([r.lo, r.hi], 3)),
          el("td", { class: "num" }, formatNumber(shift?.estimate, 3)),
          el("td", { class: "num" }, shift ? interval([shift.lo, shift.hi], 3) : "—"),
        ];
        // The pooled row belongs to no player: it opens nothing, in the charts either, but the table is the
        // chart's text and carries its numbers too.
        if (r.player === null) return el("tr", { "data-cell": "pooled" }, ...cells);
        const player = r.player;
        return drillRow({ "data-cell": `${player}|${r.game ?? ""}` }, cells, () =>
          ctx.openCell({ player, game: r.game }),
        );
      }),
    ),
  );
}

export function sensitivitySection(ctx: SectionContext): HTMLElement | null {
  const result = ctx.data.sensitivity;
  if (ctx.data.source !== "report") return null;
  const cells = (result?.cells ?? []).filter((c) => passes(ctx.filters, c));
  const pooled = (result?.pooled ?? []).filter((p) => passes(ctx.filters, { player: p.player, game: null }));
  if (pooled.length === 0 && cells.every((c) => c.lambda === null)) {
    return section(
      "sensitivity",
      "Payoff sensitivity λ",
      el("p", { class: "no-data" }, "No payoff-sensitivity estimates for these filters."),
    );
  }
  return section(
    "sensitivity",
    "Payoff sensitivity λ",
    figure(
      ctx,
      "sensitivity",
      sensitivityChartSpec({ cells, pooled }),
      "Filled dots with whiskers: λ fitted across games with its 95% interval; hollow: single games. λ near 0: the payoffs are ignored.",
      false,
    ),
  );
}

export function repeatedSection(ctx: SectionContext): HTMLElement | null {
  const cells = ctx.data.repeated.filter((c) => passes(ctx.filters, c));
  if (ctx.data.source === "robustness" || ctx.data.source === "compare") return null;
  if (cells.length === 0)
    return section(
      "repeated",
      "Repeated play",
      el("p", { class: "no-data" }, "No finished repeated matches pass these filters."),
    );
  const withCurves = cells.filter((c) => c.curve.length > 0);
  const columns = Math.max(1, Math.floor((ctx.width - 24) / 290));
  const spec = { ...comprehensionChartSpec(withCurves), columns } as TopLevelSpec;
  const rows = cells.map((c) =>
    drillRow(
      { "data-cell": `${c.player}|${c.game}|${c.framing}`, "data-opponent": c.opponent },
      [
        el("td", {}, c.player),
        el("td", {}, `${c.game} (${c.variant})`),
        el("td", {}, c.framing),
        el("td", {}, opponentLabel(c.opponent, c.opponent_params)),
        el("td", { class: "num" }, String(c.matches)),
        el("td", { class: "num" }, formatNumber(c.mean_total_points, 1)),
        el("td", { class: "num" }, formatNumber(c.mean_cooperation_rate, 2)),
        el("td", { class: "num" }, formatComprehensionRound(c.mean_comprehension_round, c.curve.length)),
      ],
      // Its own opponent's matches: the row counts those, not the other opponents' of the same framing.
      () =>
        ctx.openCell({
          player: c.player,
          game: c.game,
          framing: c.framing,
          variant: c.variant,
          opponent: c.opponent,
        }),
    ),
  );
  const head = el(
    "tr",
    {},
    ...["Player", "Game", "Framing", "Opponent", "Matches", "Points", "Cooperation", "Comprehension m"].map(
      (h, i) => el("th", i >= 4 ? { class: "num" } : {}, h),
    ),
  );
  return section(
    "repeated",
    "Repeated play",
    withCurves.length > 0
      ? figure(
          ctx,
          "comprehension",
          spec,
          "Share of rounds from each round on in which the player did at least as well as matching its opponent; comprehension from where the line stays above the dashed 0.9.",
          false,
        )
      : null,
    el(
      "div",
      { class: "table-scroll" },
      el("table", { "data-table": "repeated" }, el("thead", {}, head), el("tbody", {}, ...rows)),
    ),
    el("p", { class: "muted" }, "Click or press Enter on a row to list its matches."),
  );
}

export function checksSection(ctx: SectionContext): HTMLElement | null {
  const checks = ctx.data.checks;
  // Robustness's coverage stands in its own section.
  const notes = ctx.data.notes.filter((n) => n.name !== ROBUSTNESS_COVERAGE);
  if (checks.length === 0 && notes.length === 0) return null;
  const ordered = [...checks.filter((c) => !c.ok), ...checks.filter((c) => c.ok)];
  const failed = ordered.filter((c) => !c.ok).length;
  return section(
    "checks",
    "Verification",
    el(
      "p",
      { class: failed === 0 ? "muted" : "status error" },
      failed === 0 ? `All ${checks.length} checks passed.` : `${failed} of ${checks.length} checks FAILED.`,
    ),
    el(
      "ul",
      { class: "checks" },
      ...ordered.map((c) =>
        el(
          "li",
          { "data-check": c.name },
          el("span", { class: c.ok ? "ok" : "failed" }, c.ok ? "✓ " : "✗ FAILED "),
          `${c.name}: `,
          el("span", { class: "muted" }, c.detail),
        ),
      ),
    ),
    notes.length === 0 ? null : el("h3", {}, "Notes"),
    notes.length === 0 ? null : el("p", { class: "muted" }, "Information about the results, not failures."),
    notes.length === 0
      ? null
      : el(
          "ul",
          { class: "notes" },
          ...notes.map((n) =>
            el("li", { "data-note": n.name }, `${n.name}: `, el("span", { class: "muted" }, n.detail)),
          ),
        ),
  );
}
