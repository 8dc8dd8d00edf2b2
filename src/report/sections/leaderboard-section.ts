import type { TopLevelSpec } from "vega-lite";
import { chartFigure } from "../chart-svg.js";
import { formatCi, formatNumber } from "../format-numbers.js";
import { html, type SafeHtml } from "../html.js";
import type { Leaderboard, LeaderboardRow } from "../report-data.js";
import { playerName } from "./provenance-section.js";

/** A rank interval as read: "1" when it is one rank, else "1–3". */
export function rankInterval(row: LeaderboardRow): string {
  const [lo, hi] = row.rank.ci;
  return lo === hi ? String(lo) : `${lo}–${hi}`;
}

/** The R rows of a leaderboard, best first (the rows of other measures have tables of their own). */
export function rRows(board: Leaderboard): LeaderboardRow[] {
  return board.rows.filter((r) => r.measure === "R");
}

export interface LeaderboardChartOptions {
  width: number;
  /** A group to stand out (the dashboard's selected player); the others are drawn faint. */
  selected?: string;
}

/**
 * The forest plot of the leaderboard: one row per group in rank order, R as a dot on its interval, each
 * tied group (tier) in its own colour so the statistically tied groups are seen together. The rows carry
 * `player` when groups are players, so the dashboard can filter by a clicked row.
 */
export function leaderboardChartSpec(board: Leaderboard, options: LeaderboardChartOptions): TopLevelSpec {
  const level = `${Math.round(board.confidence * 100)}%`;
  const values = rRows(board).map((r) => ({
    group: r.group,
    ...(board.by === "player" ? { player: r.group } : {}),
    estimate: r.estimate,
    lo: r.ci[0],
    hi: r.ci[1],
    rank: rankInterval(r),
    tier: `tier ${r.tied_group}`,
    faint: options.selected !== undefined && options.selected !== r.group,
  }));
  const y = { field: "group", type: "nominal", title: null, sort: null, axis: { labelLimit: 0 } } as const;
  const x = {
    type: "quantitative" as const,
    title: "R (1 = unmoved by the story)",
    scale: { domain: [0, 1] },
  };
  const tier = {
    field: "tier",
    type: "nominal",
    title: "Tied group",
    sort: null,
    scale: { scheme: "tableau10" },
  } as const;
  const opacity = { condition: { test: "datum.faint", value: 0.3 }, value: 1 } as const;
  return {
    title: `Leaderboard: R by ${board.by} with ${level} intervals`,
    width: options.width,
    height: { step: 22 },
    data: { values },
    layer: [
      // One datum of its own, or the line would be drawn once per group.
      {
        data: { values: [{}] },
        mark: { type: "rule", strokeDash: [4, 3], color: "#888" },
        encoding: { x: { datum: 1 } },
      },
      {
        mark: { type: "rule", strokeWidth: 2 },
        encoding: { y, x: { ...x, field: "lo" }, x2: { field: "hi" }, color: tier, opacity },
      },
      {
        mark: { type: "point", filled: true, size: 80, cursor: "pointer" },
        encoding: {
          y,
          x: { ...x, field: "estimate" },
          color: tier,
          opacity,
          tooltip: [
            { field: "group", title: board.by },
            { field: "estimate", format: ".3f", title: "R" },
            { field: "lo", format: ".3f", title: "CI low" },
            { field: "hi", format: ".3f", title: "CI high" },
            { field: "rank", title: "Rank interval" },
            { field: "tier", title: "Tied group" },
          ],
        },
      },
    ],
  };
}

function measureTable(
  rows: readonly LeaderboardRow[],
  board: Leaderboard,
  imported: ReadonlyMap<string, string>,
) {
  const level = `${Math.round(board.confidence * 100)}%`;
  const name = (group: string) => (board.by === "player" ? playerName(group, imported) : html`${group}`);
  const body = rows.map(
    (r) =>
      html`<tr><td class="num" data-label="Rank">${String(r.rank.estimate)}</td><td data-label="${board.by}">${name(r.group)}</td><td class="num" data-label="${r.measure}">${formatNumber(r.estimate)}</td><td class="num" data-label="${level} CI">${formatCi(r.ci)}</td><td class="num" data-label="Rank interval">${rankInterval(r)}</td><td class="num" data-label="Tied group">${String(r.tied_group)}</td></tr>`,
  );
  return html`<table class="stack leaderboard">
<thead><tr><th class="num">Rank</th><th>${board.by}</th><th class="num">${rows[0]?.measure ?? ""}</th><th class="num">${level} CI</th><th class="num">Rank interval</th><th class="num">Tied group</th></tr></thead>
<tbody>${body}</tbody></table>`;
}

/**
 * Which player is more robust: the ranks of `compare` as a table and a forest plot. With fewer than two
 * players to rank the section is one sentence saying why.
 */
export async function leaderboardSection(
  board: Leaderboard | null | undefined,
  imported: ReadonlyMap<string, string> = new Map(),
  missing?: string,
): Promise<SafeHtml> {
  const rows = board ? rRows(board) : [];
  if (!board || rows.length < 2) {
    return html`<section id="leaderboard"><h2>Leaderboard</h2><p class="no-data">No leaderboard: ${missing ?? "fewer than two players share a game played under every framing."}</p></section>`;
  }
  const level = `${Math.round(board.confidence * 100)}%`;
  const figure = await chartFigure(
    leaderboardChartSpec(board, { width: 360 }),
    `Each row is one ${board.by}'s R over the games every ${board.by} played under every framing, with its ${level} bootstrap interval, best first. One colour is one tied group: the ${board.by}s of a tier are not shown to differ from its best at the ${level} level (simultaneous rank intervals).`,
  );
  const others = [...new Set(board.rows.map((r) => r.measure))].filter((m) => m !== "R");
  const otherTables = others.map(
    (m) =>
      html`<h3>${m}</h3>${measureTable(
        board.rows.filter((r) => r.measure === m),
        board,
        imported,
      )}`,
  );
  return html`<section id="leaderboard"><h2>Leaderboard</h2><p class="settings">R of each ${board.by} on ${board.games.join(", ")} over framings ${board.framings.join(", ")}; ${board.bootstrap.toLocaleString("en-US")} bootstrap replicates, seed ${board.seed}. A rank interval holds the ${board.by}'s true rank with all the others' at once (${level}); a tied group holds the ${board.by}s not surely below its best. <code>same-game analyze compare</code> gives every pair's difference; <code>same-game export leaderboard</code> writes this table.</p>${figure}${measureTable(rows, board, imported)}${otherTables}</section>`;
}
