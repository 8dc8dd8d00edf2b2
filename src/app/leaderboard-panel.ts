import { confidenceLevel } from "../queries/format.js";
import type { LeaderboardRow } from "../report/report-data.js";
import {
  conditionsText,
  leaderboardChartSpec,
  MEASURE_TITLES,
  measureColumn,
  rankInterval,
  rRows,
} from "../report/sections/leaderboard-section.js";
import { el, formatNumber } from "./dom.js";
import { figure, type SectionContext, section } from "./sections.js";

/** The ranked measures after R, in the leaderboard's order: one-shot λ and exploitability, then repeated play. */
const OTHER_MEASURES = ["lambda", "exploitability", "points", "cooperation", "comprehension_m"] as const;

/**
 * The leaderboard of a report or compare result: R's table and forest plot (the HTML report's), then a table
 * for each other ranked measure. Clicking a group (its name, or its row of the plot) filters every other
 * view to it: for players the player filter, else the group filter; clicking it again shows all. The
 * leaderboard itself keeps every group, the chosen one marked.
 */
export function leaderboardSection(ctx: SectionContext): HTMLElement | null {
  const { source } = ctx.data;
  if (source !== "report" && source !== "compare") return null;
  const board = ctx.data.leaderboard;
  const others = board ? OTHER_MEASURES.filter((m) => board.rows.some((r) => r.measure === m)) : [];
  if (!board || (rRows(board).length < 2 && others.length === 0)) {
    const why =
      ctx.data.leaderboardMissing ?? "fewer than two players share a game played under every framing.";
    return section("leaderboard", "Leaderboard", el("p", { class: "no-data" }, `No leaderboard: ${why}`));
  }
  const selected = ctx.selectedGroup || undefined;
  const level = confidenceLevel(board.confidence);
  const table = (name: string, rows: readonly LeaderboardRow[]) =>
    el(
      "div",
      { class: "table-scroll" },
      el(
        "table",
        { "data-table": name },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            ...[
              "Rank",
              board.by,
              measureColumn(rows[0]?.measure ?? ""),
              `${level} CI`,
              "Rank interval",
              "Tied group",
            ].map((h, i) => el("th", i === 1 ? {} : { class: "num" }, h)),
          ),
        ),
        el("tbody", {}, ...rows.map((r) => rankRow(ctx, r, selected))),
      ),
    );
  const r = rRows(board);
  const width = Math.max(140, Math.min(420, ctx.width - 230));
  const oneShot =
    r.length < 2
      ? [
          el(
            "p",
            { class: "no-data" },
            `No ranks of R: ${ctx.data.leaderboardMissing ?? "no one-shot play to rank."}`,
          ),
        ]
      : [
          el(
            "p",
            { class: "muted" },
            `R of each ${board.by} on ${board.games.join(", ")} over ${board.framings.join(", ")}; a tied group holds the ${board.by}s not surely below its best (simultaneous ${level} rank intervals).`,
          ),
          figure(
            ctx,
            "leaderboard",
            leaderboardChartSpec(board, { width, selected }),
            `R with its ${level} interval, best first; one colour per tied group. Click a ${board.by} (or press Enter on its name in the table) to show only it in the other views; again for all.`,
            (d) => {
              const group = d.group ?? d.player;
              if (group) ctx.selectGroup(group === selected ? "" : group);
            },
          ),
          table("leaderboard", r),
        ];
  const rest = others.flatMap((m) => {
    const title = MEASURE_TITLES[m] ?? { title: m, first: "the highest value" };
    const on = board.conditions?.[m] ? ` On ${conditionsText(board, m)}.` : "";
    return [
      el("h3", {}, title.title),
      el("p", { class: "muted" }, `Rank 1: ${title.first}.${on}`),
      table(
        `leaderboard-${m}`,
        board.rows.filter((row) => row.measure === m),
      ),
    ];
  });
  return section("leaderboard", "Leaderboard", ...oneShot, ...rest);
}

/** One group's line: its name a button that chooses it (or, chosen, shows all again). */
function rankRow(ctx: SectionContext, r: LeaderboardRow, selected: string | undefined): HTMLElement {
  const name = el(
    "button",
    { type: "button", class: "link", "data-group": r.group, "aria-pressed": String(r.group === selected) },
    r.group,
  );
  name.addEventListener("click", () => ctx.selectGroup(r.group === selected ? "" : r.group));
  const digits = r.measure === "points" ? 2 : 3;
  return el(
    "tr",
    { "data-group": r.group, class: r.group === selected ? "selected" : "" },
    el("td", { class: "num" }, String(r.rank.estimate)),
    el("td", {}, name),
    el("td", { class: "num" }, formatNumber(r.estimate, digits)),
    el("td", { class: "num" }, `[${formatNumber(r.ci[0], digits)}, ${formatNumber(r.ci[1], digits)}]`),
    el("td", { class: "num" }, rankInterval(r)),
    el("td", { class: "num" }, String(r.tied_group)),
  );
}
