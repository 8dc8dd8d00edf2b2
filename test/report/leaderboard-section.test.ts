import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv as Ajv07 } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { importCommand } from "../../src/cli/import.js";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { leaderboard } from "../../src/queries/leaderboard-query.js";
import { reportData } from "../../src/queries/report-data-query.js";
import { renderReportHtml } from "../../src/report/render-report.js";
import { connectClient, tempDeps } from "../support/harness.js";
import { importCounts } from "../support/imported-counts.js";
import { TFT_MATCHES, tftTranscript } from "../support/tft-transcripts.js";

// The report's leaderboard on hand-checkable records: the ranks of `compare` (one query for the report,
// the dashboard and the export), as a table in rank order and a forest plot, or one sentence with fewer
// than two players.

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

// Repeated play: tft-transcripts.ts's matches against tit-for-tat, added up there by hand: points 64.33 and
// 36.67, cooperation 46/48 = 0.958 and 1/48 = 0.021. Every match comprehends from round 1 (m = 1), so m ties.
function importRepeated(players: readonly ("cooperator" | "defector")[]): void {
  const lines = players.flatMap((p) => TFT_MATCHES[p].map((moves) => tftTranscript(p, moves)));
  importMatches(deps, parseMatchesJsonl(lines.join("\n"), "hand.jsonl", deps.catalog), "hand");
}

/** The rows of the leaderboard table under the heading `title`, as [rank, player, value, CI, rank interval, tier]. */
function measureRows(page: string, title: string): string[][] {
  const section = /<section id="leaderboard">[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
  const after = section.split(`<h3>${title}</h3>`)[1] ?? section.split(`<h4>${title}</h4>`)[1] ?? "";
  const table = /<table class="stack leaderboard">[\s\S]*?<\/table>/.exec(after)?.[0] ?? "";
  return [...table.matchAll(/<tr><td[\s\S]*?<\/tr>/g)].map((row) =>
    [...row[0].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) =>
      (cell[1] as string).replace(/<span[\s\S]*?<\/span>/g, "").trim(),
    ),
  );
}

/** The leaderboard table's rows as [rank, player, R, CI, rank interval, tied group] text. */
function tableRows(page: string): string[][] {
  const section = /<section id="leaderboard">[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
  const table = /<table class="stack leaderboard">[\s\S]*?<\/table>/.exec(section)?.[0] ?? "";
  return [...table.matchAll(/<tr><td[\s\S]*?<\/tr>/g)].map((row) =>
    [...row[0].matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) =>
      (cell[1] as string).replace(/<span[\s\S]*?<\/span>/g, "").trim(),
    ),
  );
}

describe("the report's leaderboard", () => {
  it("ranks an always-dominant player first with the rank interval 1, the tied twins below it together", async () => {
    await importCounts(deps, {
      twin: { business: 3, friend: 27 },
      dominant: { business: 0, friend: 0 },
      "twin-too": { business: 3, friend: 27 },
    });
    const data = reportData(deps, { bootstrap: 2000, seed: 3 });
    // The report shows exactly what the shared query gives under the same settings.
    expect(data.leaderboard).toEqual(leaderboard(deps, { bootstrap: 2000, seed: 3 }));
    const page = await renderReportHtml(data);
    // R of the twins = 1 − JSD((0.1, 0.9), (0.9, 0.1)) / ln 2 = 1 − 0.368 / 0.693 = 0.469, the same for both.
    const rows = tableRows(page);
    expect(rows.map((r) => [r[0], r[1], r[2], r[4], r[5]])).toEqual([
      ["1", "dominant", "1.000", "1", "1"],
      ["2", "twin", "0.469", "2–3", "2"],
      ["2", "twin-too", "0.469", "2–3", "2"],
    ]);
    const section = /<section id="leaderboard">[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
    // The forest plot: one row per player in rank order, the twins' tier in one colour, named in the legend.
    expect(section).toContain('role="img" aria-label="Leaderboard: R by player with 95% intervals"');
    expect([...section.matchAll(/<text x="-7" y="[\d.]+">([^<]+)<\/text>/g)].map((m) => m[1])).toEqual([
      "dominant",
      "twin",
      "twin-too",
    ]);
    // Its interval of R is not the Robustness table's, and the caption says why.
    expect(section).toContain(
      "the percentile interval of its replicates joined with the MOVER combination of its games' test-inversion intervals",
    );
    expect(section).toContain(">tier 1</text>");
    expect(section).toContain(">tier 2</text>");
    expect(page).toContain('<a href="#leaderboard">');
  });

  it("says its interval of R need not hold the Robustness section's, as it does not, and which to quote", async () => {
    // Two games, 20 decisions per framing each. det cooperates always (R = 1); shift cooperates 4 of 20
    // under business and 16 of 20 with friends in both: m = (½, ½), JSD = ln 2 − H(0.2), so
    // R = H(0.2)/ln 2 = 0.7219 per game and over both.
    const lines = ["player,game,framing,action,count"];
    for (const game of ["prisoners-dilemma", "stag-hunt"]) {
      for (const [player, business, friend] of [
        ["det", 20, 20],
        ["shift", 4, 16],
      ] as const) {
        for (const [framing, c] of [
          ["business", business],
          ["friend-sharing", friend],
        ] as const) {
          lines.push(
            `${player},${game},${framing},cooperate,${c}`,
            `${player},${game},${framing},defect,${20 - c}`,
          );
        }
      }
    }
    const file = join(deps.dir, "two-games.csv");
    writeFileSync(file, `${lines.join("\n")}\n`);
    await importCommand.run(parseCommandArgs(importCommand, ["counts", file, "--db", deps.dbPath]));
    const data = reportData(deps, { bootstrap: 2000, seed: 1 });
    const board = data.leaderboard?.rows.find((r) => r.measure === "R" && r.group === "shift");
    const robust = data.robustness?.players.find((p) => p.player === "shift");
    expect(board?.estimate).toBeCloseTo(0.7219, 4);
    expect(robust?.R.estimate).toBeCloseTo(0.7219, 4);
    // The two intervals come from bootstraps of their own: here the leaderboard's upper end (0.8709) lies
    // below the Robustness section's (0.8748), while its lower end (0.4932) lies well below (0.5531).
    expect(board?.ci[1]).toBeCloseTo(0.8709, 4);
    expect(robust?.R.ci[1]).toBeCloseTo(0.8748, 4);
    const section =
      /<section id="leaderboard">[\s\S]*?<\/section>/.exec(await renderReportHtml(data))?.[0] ?? "";
    expect(section).not.toContain("at least as wide");
    expect(section).toContain(
      "so neither interval need hold the other, and their ends can differ in the third decimal. Quote the Robustness section's for a player's R, this one beside its rank.",
    );
  });

  it("says which games it leaves out and the player that did not play them under every framing", async () => {
    // "full" and "other, inc." played prisoners-dilemma and stag-hunt under both framings; "short" played
    // stag-hunt under business only. The Robustness section shows stag-hunt for the two; a rank needs
    // every player on the same games, so the leaderboard ranks on prisoners-dilemma alone, and says why.
    const lines = ["player,game,framing,action,count"];
    const cell = (player: string, game: string, framing: string, c: number) =>
      lines.push(
        `${player},${game},${framing},cooperate,${c}`,
        `${player},${game},${framing},defect,${20 - c}`,
      );
    for (const player of ["full", '"other, inc."']) {
      for (const game of ["prisoners-dilemma", "stag-hunt"]) {
        cell(player, game, "business", 10);
        cell(player, game, "friend-sharing", 12);
      }
    }
    cell("short", "prisoners-dilemma", "business", 10);
    cell("short", "prisoners-dilemma", "friend-sharing", 12);
    cell("short", "stag-hunt", "business", 10);
    const file = join(deps.dir, "short.csv");
    writeFileSync(file, `${lines.join("\n")}\n`);
    await importCommand.run(parseCommandArgs(importCommand, ["counts", file, "--db", deps.dbPath]));
    const data = reportData(deps, { bootstrap: 200, seed: 1 });
    expect(data.leaderboard?.games).toEqual(["prisoners-dilemma"]);
    const section =
      /<section id="leaderboard">[\s\S]*?<\/section>/.exec(await renderReportHtml(data))?.[0] ?? "";
    const text = section.replace(/<[^>]+>/g, "");
    expect(text).toContain(
      "The Robustness section also shows stag-hunt, which short did not play under every framing; a rank needs every player on the same games, so the leaderboard ranks on prisoners-dilemma only (analyze compare names who lacks which game).",
    );
  });

  it("comes with the report tool's result, validated against its advertised schema (draft-07 and 2020-12)", async () => {
    await importCounts(deps, { swayed: { business: 3, friend: 27 }, dominant: { business: 0, friend: 0 } });
    const client = await connectClient(deps, { clientName: "dashboard-host" });
    try {
      const { tools } = await client.listTools();
      const schema = tools.find((t) => t.name === "report")?.outputSchema as object;
      const result = await client.callTool({ name: "report", arguments: { bootstrap: 500, seed: 3 } });
      for (const ajv of [new Ajv07({ allErrors: true }), new Ajv2020({ allErrors: true })]) {
        const validate = ajv.compile(schema);
        expect(validate(result.structuredContent), ajv.errorsText(validate.errors)).toBe(true);
      }
      const board = (result.structuredContent as { leaderboard: { rows: { measure: string }[] } })
        .leaderboard;
      expect(board).toEqual(leaderboard(deps, { bootstrap: 500, seed: 3 }));
      expect(board.rows.filter((r) => r.measure === "R")).toMatchObject([
        { group: "dominant", estimate: 1, rank: { estimate: 1, ci: [1, 1] }, tied_group: 1 },
        { group: "swayed", rank: { estimate: 2, ci: [2, 2] }, tied_group: 2 },
      ]);
    } finally {
      await client.close();
    }
  });

  it("ranks repeated play too: points 64.33 over 36.67, cooperation 0.958 over 0.021, comprehension m tied at 1", async () => {
    await importCounts(deps, { swayed: { business: 3, friend: 27 }, dominant: { business: 0, friend: 0 } });
    importRepeated(["cooperator", "defector"]);
    const data = reportData(deps, { bootstrap: 1000, seed: 3 });
    // The one-shot ranks are compare's under the report's settings; the repeated ones its comparison of
    // repeated play alone, on every repeated condition.
    const oneShot = leaderboard(deps, { bootstrap: 1000, seed: 3, repeated_play: false });
    const repeated = leaderboard(deps, { bootstrap: 1000, seed: 3, one_shot: false });
    expect(data.leaderboard?.rows).toEqual([...oneShot.rows, ...repeated.rows]);
    expect(data.leaderboard?.conditions?.points).toEqual([
      { game: "repeated-pd", framing: "their-prompt", opponent: "tft" },
    ]);
    const page = await renderReportHtml(data);
    expect(tableRows(page).map((r) => [r[1], r[2]])).toEqual([
      ["dominant", "1.000"],
      ["swayed", "0.469"],
    ]);
    expect(measureRows(page, "Total points per match").map((r) => [r[0], r[1], r[2], r[5]])).toEqual([
      ["1", "cooperator", "64.33", "1"],
      ["2", "defector", "36.67", "2"],
    ]);
    expect(measureRows(page, "Cooperation rate").map((r) => [r[0], r[1], r[2], r[5]])).toEqual([
      ["1", "cooperator", "0.958", "1"],
      ["2", "defector", "0.021", "2"],
    ]);
    // Both comprehend from round 1: the same rank, one rank interval 1–2, one tied group.
    expect(measureRows(page, "Comprehension m (round)").map((r) => [r[0], r[2], r[4], r[5]])).toEqual([
      ["1", "1.000", "1–2", "1"],
      ["1", "1.000", "1–2", "1"],
    ]);
    expect(page).toContain("On repeated-pd/their-prompt vs tft.");
    // The repeated-play measures are headed one level below "Repeated play", the one-shot ones beside it.
    const headings = [
      ...(/<section id="leaderboard">[\s\S]*?<\/section>/.exec(page)?.[0] ?? "").matchAll(
        /<(h[2-4])>([^<]*)</g,
      ),
    ].map((m) => `${m[1]} ${m[2]}`);
    expect(headings.slice(headings.indexOf("h3 Repeated play"))).toEqual([
      "h3 Repeated play",
      "h4 Total points per match",
      "h4 Cooperation rate",
      "h4 Comprehension m (round)",
    ]);
    // What docs/science.md measured of m's intervals: smoothed, wide (never too narrow) with few matches.
    expect(page).toContain(
      "with 3–5 matches a player they are wide (they held the true difference in 97.8–100% of simulated studies, 95.3% with 30; docs/science.md).",
    );
    expect(page).not.toContain("too narrow");
  });

  it("says why repeated play is not ranked: no repeated matches, or one player's only", async () => {
    await importCounts(deps, { swayed: { business: 3, friend: 27 }, dominant: { business: 0, friend: 0 } });
    const none = await renderReportHtml(reportData(deps, { bootstrap: 200 }));
    expect(none).toContain(
      `<h3>Repeated play</h3><p class="no-data">Repeated play is not ranked: the record has no finished repeated matches.</p>`,
    );
    importRepeated(["cooperator"]);
    const one = await renderReportHtml(reportData(deps, { bootstrap: 200 }));
    expect(one).toContain(
      `<p class="no-data">Repeated play is not ranked: The repeated matches cannot be compared: Points needs finished repeated matches of at least two groups; only &#39;cooperator&#39; has some. To rank repeated play, play repeated matches with another player or import transcripts (same-game import matches).</p>`,
    );
    // One-shot ranks stand beside it.
    expect(tableRows(one).map((r) => r[1])).toEqual(["dominant", "swayed"]);
  });

  it("keeps repeated play's ranks when no two players share a one-shot game", async () => {
    await importCounts(deps, { alone: { business: 20, friend: 10 } });
    importRepeated(["cooperator", "defector"]);
    const page = await renderReportHtml(reportData(deps, { bootstrap: 200 }));
    expect(page).toContain(
      `<p class="no-data">No one-shot ranks: A comparison needs at least two groups; the record has only &#39;alone&#39;.</p>`,
    );
    expect(measureRows(page, "Total points per match").map((r) => r[1])).toEqual(["cooperator", "defector"]);
  });

  it("is one sentence saying why when the record has a single player", async () => {
    await importCounts(deps, { alone: { business: 20, friend: 10 } });
    const data = reportData(deps, { bootstrap: 200 });
    expect(data.leaderboard).toBeNull();
    const page = await renderReportHtml(data);
    const section = /<section id="leaderboard">[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
    expect(section).toBe(
      `<section id="leaderboard"><h2>Leaderboard</h2><p class="no-data">No leaderboard: A comparison needs at least two groups; the record has only &#39;alone&#39;.</p></section>`,
    );
  });
});
