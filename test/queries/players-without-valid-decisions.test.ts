import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { exportCommand } from "../../src/cli/export.js";
import type { Caller } from "../../src/play/caller.js";
import { startMatch } from "../../src/play/start-match.js";
import { submitMove } from "../../src/play/submit-move.js";
import { compareReport } from "../../src/queries/compare-query.js";
import { reportData } from "../../src/queries/report-data-query.js";
import { robustnessReport } from "../../src/queries/robustness-query.js";
import { tempDeps } from "../support/harness.js";
import { importCounts } from "../support/imported-counts.js";

// A player whose every round was void (five unreadable replies) has matches but no decision an analysis can
// count. compare, export leaderboard, robustness and the report name it with why, instead of ranking the
// others as if it had never been asked for.

let deps: ReturnType<typeof tempDeps>;
beforeEach(async () => {
  deps = tempDeps();
  // alpha cooperates 20/30 → 10/30 between the stories, beta 25/30 → 5/30.
  await importCounts(deps, { alpha: { business: 20, friend: 10 }, beta: { business: 25, friend: 5 } });
  const caller: Caller = {
    sessionId: "void-session",
    transport: "memory",
    principal: "local",
    configuredPlayer: "void-bot",
    clientInfo: () => null,
  };
  for (const framing of ["business", "friend-sharing"]) {
    const view = startMatch(deps, caller, "void-bot", {
      game: "prisoners-dilemma",
      variant: "base",
      framing,
      style: "zero-shot",
      opponent: { id: "always-defect", params: {} },
      seed: "7",
      history_mode: "none",
      reveal_horizon: false,
    });
    for (let attempt = 1; attempt <= 5; attempt++) {
      submitMove(deps, caller, { match_id: view.match_id, round: 1, choice: `no idea ${attempt}` });
    }
    expect(deps.store.getDecision(view.match_id, 1)?.status).toBe("void");
  }
});
afterEach(() => deps.dispose());

const WHY = "void-bot: 2 matches, 0 valid decisions (all void)";
const PLAYERS = ["void-bot", "alpha", "beta"];

describe("a player with matches but no valid decision", () => {
  it("is named in compare's notes and left_out, and ranked nowhere", () => {
    const report = compareReport(deps, { players: PLAYERS, bootstrap: 200, seed: 1 });
    expect(report.groups).toEqual(["alpha", "beta"]);
    expect(report.left_out).toEqual([{ group: "void-bot", reason: WHY }]);
    expect(report.notes).toContain(`Not ranked: ${WHY}.`);
  });

  it("has a row per measure in export leaderboard, without estimate or rank, saying why", async () => {
    const out = join(deps.dir, "leaderboard.csv");
    const args = ["leaderboard", "--db", deps.dbPath, "--players", PLAYERS.join(","), "--bootstrap", "200"];
    await exportCommand.run(parseCommandArgs(exportCommand, [...args, "--out", out]));
    const rows = parse(readFileSync(out, "utf8"), { columns: true }) as Record<string, string>[];
    const r = rows.filter((row) => row.measure === "R");
    expect(r.map((row) => [row.group, row.rank === "", row.estimate === "", row.not_ranked])).toEqual([
      ["alpha", false, false, ""],
      ["beta", false, false, ""],
      ["void-bot", true, true, WHY],
    ]);
    // Every measure ranked lists it the same way.
    const measures = new Set(rows.map((row) => row.measure));
    expect(rows.filter((row) => row.group === "void-bot")).toHaveLength(measures.size);
  });

  it("is listed in robustness's skipped (every framing missing) and its notes", () => {
    const report = robustnessReport(deps, { players: PLAYERS, bootstrap: 200, seed: 1 });
    expect(report.players.map((p) => p.player)).toEqual(["alpha", "beta"]);
    expect(report.skipped).toEqual([
      { player: "void-bot", game: "prisoners-dilemma", missing: ["business", "friend-sharing"] },
    ]);
    expect(report.notes).toContainEqual({ name: "no_valid_decisions", detail: `Left out: ${WHY}.` });
  });

  it("is named in the report's notes, for robustness and for the leaderboard", () => {
    const data = reportData(deps, { bootstrap: 200, seed: 1 });
    const notes = [...(data.robustness?.notes ?? []), ...(data.notes ?? [])];
    expect(notes).toContainEqual({ name: "no_valid_decisions", detail: `Left out: ${WHY}.` });
    expect(notes).toContainEqual({ name: "leaderboard_left_out", detail: `Not ranked: ${WHY}.` });
    expect(data.leaderboard?.rows.some((row) => row.group === "void-bot")).toBe(false);
  });
});
