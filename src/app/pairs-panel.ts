import { opponentLabel } from "../domain/opponent-label.js";
import { confidenceLevel, pValue } from "../queries/format.js";
import { MEASURE_TITLES } from "../report/sections/leaderboard-section.js";
import type { ComparedPair } from "./dashboard-data.js";
import { el, formatNumber } from "./dom.js";
import { type SectionContext, section } from "./sections.js";

/** Which cells a pair was compared on, as read: "prisoners-dilemma × business, team". */
function cellsText(pair: ComparedPair): string {
  const byGame = new Map<string, string[]>();
  for (const c of pair.cells_used) {
    const key = c.opponent ? `${c.game} vs ${opponentLabel(c.opponent, c.opponent_params)}` : c.game;
    byGame.set(key, [...(byGame.get(key) ?? []), c.framing]);
  }
  return [...byGame].map(([game, framings]) => `${game} × ${framings.join(", ")}`).join("; ");
}

/**
 * Every pair of a `compare` result: a − b with its interval, the p-value and Holm's adjusted p, whether
 * it was paired, and the cells it was compared on. A group chosen in the leaderboard keeps only its pairs.
 */
export function pairsSection(ctx: SectionContext): HTMLElement | null {
  const details = ctx.data.comparison;
  const board = ctx.data.leaderboard;
  if (ctx.data.source !== "compare" || !details || !board) return null;
  const chosen = ctx.selectedGroup;
  const pairs = details.pairs.filter((p) => !chosen || p.a === chosen || p.b === chosen);
  const level = confidenceLevel(board.confidence);
  const digits = (p: ComparedPair) => (p.measure === "points" ? 2 : 3);
  const rows = pairs.map((p) =>
    el(
      "tr",
      { "data-pair": `${p.measure}|${p.a}|${p.b}` },
      el("td", {}, MEASURE_TITLES[p.measure]?.column ?? p.measure),
      el("td", {}, `${p.a} − ${p.b}`),
      el("td", { class: "num" }, formatNumber(p.difference.estimate, digits(p))),
      el(
        "td",
        { class: "num" },
        `[${formatNumber(p.difference.ci[0], digits(p))}, ${formatNumber(p.difference.ci[1], digits(p))}]`,
      ),
      el("td", { class: "num" }, pValue(p.p_value)),
      el("td", { class: "num" }, pValue(p.p_adjusted)),
      el("td", {}, p.paired ? "paired" : "independent"),
      el("td", {}, cellsText(p)),
    ),
  );
  const head = el(
    "tr",
    {},
    ...["Measure", "Pair", "a − b", `${level} CI`, "p", "Holm p", "Bootstrap", "Compared on"].map((h, i) =>
      el("th", i >= 2 && i <= 5 ? { class: "num" } : {}, h),
    ),
  );
  return section(
    "pairs",
    "Pairwise differences",
    el(
      "p",
      { class: "muted" },
      `Each difference a − b on the cells both ${board.by}s played, with its ${level} interval (for R also holding the two ${board.by}s' test-inversion intervals combined), its p-value and Holm's adjusted p. ${details.family}`,
    ),
    chosen
      ? el(
          "p",
          { "data-showing": chosen },
          `The pairs with ${chosen}; click it again in the leaderboard for all.`,
        )
      : null,
    pairs.length === 0
      ? el("p", { class: "no-data" }, "No pair to show.")
      : el(
          "div",
          { class: "table-scroll" },
          el("table", { "data-table": "pairs" }, el("thead", {}, head), el("tbody", {}, ...rows)),
        ),
    details.skipped.length === 0 ? null : el("h3", {}, "Not compared"),
    details.skipped.length === 0
      ? null
      : el(
          "ul",
          { class: "notes" },
          ...details.skipped.map((s) =>
            el(
              "li",
              { "data-skipped": s.measure },
              `${MEASURE_TITLES[s.measure]?.title ?? s.measure}: `,
              el("span", { class: "muted" }, s.reason),
            ),
          ),
        ),
    details.notes.length === 0
      ? null
      : el("ul", { class: "notes" }, ...details.notes.map((n) => el("li", { class: "muted" }, n))),
  );
}
