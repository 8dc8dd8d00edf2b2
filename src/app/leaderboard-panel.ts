import { leaderboardChartSpec, rankInterval, rRows } from "../report/sections/leaderboard-section.js";
import { el, formatNumber } from "./dom.js";
import { figure, type SectionContext, section } from "./sections.js";

/**
 * The leaderboard of the report result: the table and the forest plot of the HTML report. When the groups
 * are players, clicking one (its name or its row of the plot) filters every other view to that player;
 * clicking it again shows all players. The leaderboard itself keeps every player, the chosen one marked.
 */
export function leaderboardSection(ctx: SectionContext): HTMLElement | null {
  const board = ctx.data.leaderboard;
  if (ctx.data.source !== "report") return null;
  if (!board || rRows(board).length < 2) {
    const why =
      ctx.data.leaderboardMissing ?? "fewer than two players share a game played under every framing.";
    return section("leaderboard", "Leaderboard", el("p", { class: "no-data" }, `No leaderboard: ${why}`));
  }
  const clickable = board.by === "player";
  const selected = clickable && ctx.filters.player ? ctx.filters.player : undefined;
  const toggle = (player: string) => ctx.selectPlayer(player === selected ? "" : player);
  const level = `${Math.round(board.confidence * 100)}%`;
  const rows = rRows(board).map((r) => {
    const name = clickable
      ? el(
          "button",
          {
            type: "button",
            class: "link",
            "data-group": r.group,
            "aria-pressed": String(r.group === selected),
          },
          r.group,
        )
      : r.group;
    if (name instanceof HTMLElement) name.addEventListener("click", () => toggle(r.group));
    return el(
      "tr",
      { "data-group": r.group, class: r.group === selected ? "selected" : "" },
      el("td", { class: "num" }, String(r.rank.estimate)),
      el("td", {}, name),
      el("td", { class: "num" }, formatNumber(r.estimate)),
      el("td", { class: "num" }, `[${formatNumber(r.ci[0])}, ${formatNumber(r.ci[1])}]`),
      el("td", { class: "num" }, rankInterval(r)),
      el("td", { class: "num" }, String(r.tied_group)),
    );
  });
  const head = el(
    "tr",
    {},
    ...["Rank", board.by, "R", `${level} CI`, "Rank interval", "Tied group"].map((h, i) =>
      el("th", i === 1 ? {} : { class: "num" }, h),
    ),
  );
  const width = Math.max(140, Math.min(420, ctx.width - 230));
  return section(
    "leaderboard",
    "Leaderboard",
    el(
      "p",
      { class: "muted" },
      `R of each ${board.by} on ${board.games.join(", ")} over ${board.framings.join(", ")}; a tied group holds the ${board.by}s not surely below its best (simultaneous ${level} rank intervals).`,
    ),
    figure(
      ctx,
      "leaderboard",
      leaderboardChartSpec(board, { width, selected }),
      `R with its ${level} interval, best first; one colour per tied group.${clickable ? " Click a player to show only that player in the other views; click again for all." : ""}`,
      clickable ? (d) => d.player && toggle(d.player) : false,
    ),
    el(
      "div",
      { class: "table-scroll" },
      el("table", { "data-table": "leaderboard" }, el("thead", {}, head), el("tbody", {}, ...rows)),
    ),
  );
}
