import type { TopLevelSpec } from "vega-lite";
import { opponentLabel } from "../../domain/opponent-label.js";
import { confidenceLevel } from "../../queries/format.js";
import { shellWord } from "../../queries/shell-word.js";
import { chartFigure } from "../chart-svg.js";
import { formatCi, formatNumber } from "../format-numbers.js";
import { html, isolated, type SafeHtml } from "../html.js";
import { csvList, labelListHtml } from "../label-list.js";
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
  const level = confidenceLevel(board.confidence);
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
  // One tied group, one colour and one shape, over one explicit domain: one legend of coloured shapes,
  // and tiers that stay apart in a greyscale print.
  const tier = {
    field: "tier",
    type: "nominal",
    title: "Tied group",
    sort: null,
    scale: { domain: [...new Set(values.map((v) => v.tier))] },
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
          shape: tier,
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

/** What each ranked measure is, as a table's heading says it, and which end ranks first. */
export const MEASURE_TITLES: Readonly<Record<string, { title: string; column: string; first: string }>> = {
  R: { title: "R", column: "R", first: "the highest R" },
  // Compared in pairs but not ranked (a shift's sign is no better or worse).
  shift: { title: "Cooperation shift", column: "Shift", first: "the highest shift" },
  lambda: { title: "Payoff sensitivity λ", column: "λ", first: "the highest λ" },
  exploitability: { title: "Exploitability", column: "Exploitability", first: "the lowest exploitability" },
  points: { title: "Total points per match", column: "Points", first: "the most points" },
  cooperation: { title: "Cooperation rate", column: "Cooperation", first: "the highest rate" },
  comprehension_m: { title: "Comprehension m (round)", column: "m", first: "the earliest comprehension" },
};

/** The column heading of a measure's values. */
export const measureColumn = (measure: string): string => MEASURE_TITLES[measure]?.column ?? measure;

/** The repeated-play measures, in the leaderboard's order. */
export const REPEATED_LEADERBOARD_MEASURES = ["points", "cooperation", "comprehension_m"] as const;

/** The repeated conditions a measure's ranks are computed on, as read: "repeated-pd/plain vs tit-for-tat". */
export function conditionsText(board: Leaderboard, measure: string): string {
  const cells = board.conditions?.[measure] ?? [];
  return cells
    .map(
      (c) =>
        `${c.game}/${c.framing}${c.opponent ? ` vs ${opponentLabel(c.opponent, c.opponent_params)}` : ""}`,
    )
    .join(", ");
}

function measureTable(
  rows: readonly LeaderboardRow[],
  board: Leaderboard,
  imported: ReadonlyMap<string, string>,
) {
  const level = confidenceLevel(board.confidence);
  const name = (group: string) => (board.by === "player" ? playerName(group, imported) : isolated(group));
  const digits = rows[0]?.measure === "points" ? 2 : 3;
  const body = rows.map(
    (r) =>
      html`<tr><td class="num" data-label="Rank">${String(r.rank.estimate)}</td><td data-label="${board.by}">${name(r.group)}</td><td class="num" data-label="${measureColumn(r.measure)}">${formatNumber(r.estimate, digits)}</td><td class="num" data-label="${level} CI">${formatCi(r.ci, digits)}</td><td class="num" data-label="Rank interval">${rankInterval(r)}</td><td class="num" data-label="Tied group">${String(r.tied_group)}</td></tr>`,
  );
  return html`<table class="stack leaderboard">
<thead><tr><th class="num">Rank</th><th>${board.by}</th><th class="num">${measureColumn(rows[0]?.measure ?? "")}</th><th class="num">${level} CI</th><th class="num">Rank interval</th><th class="num">Tied group</th></tr></thead>
<tbody>${body}</tbody></table>`;
}

/**
 * A measure's heading, what ranks first, and its table. The heading is an h3 under the section's, or an h4
 * under "Repeated play" for a repeated-play measure, so the outline nests as the page reads.
 */
function measureBlock(
  measure: string,
  board: Leaderboard,
  imported: ReadonlyMap<string, string>,
  note = "",
  level: "h3" | "h4" = "h3",
) {
  const title = MEASURE_TITLES[measure] ?? { title: measure, column: measure, first: "the highest value" };
  const heading = level === "h3" ? html`<h3>${title.title}</h3>` : html`<h4>${title.title}</h4>`;
  return html`${heading}<p class="settings">Rank 1: ${title.first}.${note}</p>${measureTable(
    board.rows.filter((r) => r.measure === measure),
    board,
    imported,
  )}`;
}

/**
 * The repeated-play part: total points, cooperation rate and comprehension m ranked on the conditions every
 * player played, or one sentence saying why they are not ranked.
 */
function repeatedPart(
  board: Leaderboard | null | undefined,
  imported: ReadonlyMap<string, string>,
  why: string | undefined,
): SafeHtml {
  const measures = board
    ? REPEATED_LEADERBOARD_MEASURES.filter((m) => board.rows.some((r) => r.measure === m))
    : [];
  if (!board || measures.length === 0) {
    return html`<h3>Repeated play</h3><p class="no-data">Repeated play is not ranked: ${why ?? "the record has no finished repeated matches."}</p>`;
  }
  const blocks = measures.map((m) =>
    measureBlock(
      m,
      board,
      imported,
      ` On ${conditionsText(board, m)}.${m === "comprehension_m" ? " Its intervals are smoothed by half a pseudo-match at each end of m's range, so a few matches that all show the same m still get one; with 3–5 matches a player they are wide (they held the true difference in 97.8–100% of simulated studies, 95.3% with 30; docs/science.md)." : ""}`,
      "h4",
    ),
  );
  return html`<h3>Repeated play</h3><p class="settings">Each player's mean per match over the (game, framing, opponent) conditions every player played, matches resampled (paired by schedule position where players played the same study positions).</p>${blocks}`;
}

/** The flags with which `analyze compare` and `export leaderboard` recompute this leaderboard's one-shot ranks. */
function compareFlags(board: Leaderboard, catalog: string | null, database: string | null): string {
  // The record the report was made from: without it the command reads the default record, another one.
  const record = database === null ? "" : `--db ${shellWord(database)} `;
  const study = board.study_id ? `--study ${shellWord(board.study_id)} ` : "";
  const games = catalog === null ? "" : `--catalog ${shellWord(catalog)} `;
  return `${record}${games}${study}--framings ${shellWord(csvList(board.framings))} --bootstrap ${board.bootstrap} --seed ${board.seed}`;
}

/**
 * Why the leaderboard ranks on fewer framings than the Robustness section compares, or nothing when they
 * are the same: robustness leaves out a (player, game) lacking a framing, while a rank needs every ranked
 * player measured on the same framings.
 */
function framingsWhy(board: Leaderboard, robustnessFramings: readonly string[] | undefined): SafeHtml {
  if (!robustnessFramings) return html``;
  const ranked = new Set(board.framings);
  const dropped = robustnessFramings.filter((f) => !ranked.has(f));
  if (dropped.length === 0) return html``;
  return html`The Robustness section compares ${labelListHtml(robustnessFramings)} and leaves out each (${board.by}, game) lacking one of them; a rank needs every ${board.by} on the same framings, so the leaderboard uses those every ${board.by} played (not ${labelListHtml(dropped)}).`;
}

/**
 * Why the leaderboard ranks on fewer games than the Robustness section shows, naming the players that did
 * not play the others under every framing, or nothing when the games are the same: a rank needs every
 * player on the same games, and one player short of a framing in one game takes that game out of every
 * player's rank. Only for players on the Robustness section's own framings, whose rows say who played what.
 */
function gamesWhy(
  board: Leaderboard,
  robustnessFramings: readonly string[] | undefined,
  robustnessGames: readonly { player: string; game: string }[] | undefined,
): SafeHtml {
  if (!robustnessGames || !robustnessFramings || board.by !== "player") return html``;
  if (robustnessFramings.length !== board.framings.length) return html``;
  const ranked = new Set(board.games);
  const players = [...new Set(rRows(board).map((r) => r.group))];
  const dropped = [...new Set(robustnessGames.map((g) => g.game))].filter((g) => !ranked.has(g)).sort();
  if (dropped.length === 0 || board.games.length === 0) return html``;
  const played = new Set(robustnessGames.map((g) => JSON.stringify([g.player, g.game])));
  const lacking = players.filter((p) => dropped.some((g) => !played.has(JSON.stringify([p, g]))));
  if (lacking.length === 0) return html``;
  return html`The Robustness section also shows ${dropped.join(", ")}, which ${labelListHtml(lacking)} did not play under every framing; a rank needs every player on the same games, so the leaderboard ranks on ${board.games.join(", ")} only (<code>analyze compare</code> names who lacks which game).`;
}

/**
 * Which player is more robust: the ranks of `compare` as a table and a forest plot of R, the other ranked
 * one-shot measures (λ, exploitability) as tables, then repeated play's. A part with fewer than two players
 * to rank is one sentence saying why.
 */
export async function leaderboardSection(
  board: Leaderboard | null | undefined,
  imported: ReadonlyMap<string, string> = new Map(),
  missing?: string,
  missingRepeated?: string,
  /** The framings of the Robustness section, when it ran: the leaderboard says why its own differ. */
  robustnessFramings?: readonly string[],
  /** The `--catalog` the report was made with (the record's games may need it), or null. */
  catalog: string | null = null,
  /** The `--db` the report was made with, or null for the default record. */
  database: string | null = null,
  /** The Robustness section's (player, game) rows, when it ran: the leaderboard says why its games differ. */
  robustnessGames?: readonly { player: string; game: string }[],
): Promise<SafeHtml> {
  const rows = board ? rRows(board) : [];
  const repeated = repeatedPart(board, imported, missingRepeated);
  if (!board || rows.length < 2) {
    const hasRepeated = board?.rows.some((r) => r.measure !== "R") ?? false;
    const why = missing ?? "fewer than two players share a game played under every framing.";
    return hasRepeated
      ? html`<section id="leaderboard"><h2>Leaderboard</h2><p class="no-data">No one-shot ranks: ${why}</p>${repeated}</section>`
      : html`<section id="leaderboard"><h2>Leaderboard</h2><p class="no-data">No leaderboard: ${why}</p>${missingRepeated ? repeated : html``}</section>`;
  }
  const level = confidenceLevel(board.confidence);
  const figure = await chartFigure(
    leaderboardChartSpec(board, { width: 360 }),
    `Each row is one ${board.by}'s R over the games every ${board.by} played under every ranked framing, with its ${level} interval, best first. One colour and shape is one tied group: the ${board.by}s of a tier are not shown to differ from its best at the ${level} level (simultaneous rank intervals).`,
  );
  const oneShotOthers = ["lambda", "exploitability"].filter((m) => board.rows.some((r) => r.measure === m));
  return html`<section id="leaderboard"><h2>Leaderboard</h2><p class="settings">R of each ${board.by} on ${board.games.join(", ")} over framings ${labelListHtml(board.framings)}; ${board.bootstrap.toLocaleString("en-US")} bootstrap replicates, seed ${board.seed}. A rank interval holds the ${board.by}'s true rank with all the others' at once (${level}); a tied group holds the ${board.by}s not surely below its best. A ${board.by}'s interval of R here is over the ranked games together: the percentile interval of its replicates joined with the MOVER combination of its games' test-inversion intervals. The Robustness section's interval of a player's R is that combination alone, from a bootstrap of its own, over all of the player's games, with its upper end at 1 wherever the player's invariance test does not reject (the leaderboard runs no such test); so neither interval need hold the other, and their ends can differ in the third decimal. Quote the Robustness section's for a player's R, this one beside its rank. ${framingsWhy(board, robustnessFramings)} ${gamesWhy(board, robustnessFramings, robustnessGames)} <code>same-game analyze compare ${compareFlags(board, catalog, database)}</code> gives every pair's difference; <code>same-game export leaderboard ${compareFlags(board, catalog, database)}</code> writes this table.</p>${figure}${measureTable(rows, board, imported)}${oneShotOthers.map((m) => measureBlock(m, board, imported))}${repeated}</section>`;
}
