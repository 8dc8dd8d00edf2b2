import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { analyzeCommand } from "../../src/cli/analyze.js";
import { parseCommandArgs } from "../../src/cli/command.js";
import { importCommand } from "../../src/cli/import.js";
import { packageRoot } from "../../src/package-root.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

// The counterfactual study's own game logs with invalid rounds (data/llm-gm-thesis/invalid-rounds-games.json,
// 20 games = 4 cells × 5 iterations) against its published tables (analysis/analysis_3_rps.ipynb and
// analysis_3_pd.ipynb outputs at dimjimitris/llm_gm_thesis 0282079): with --invalid-rounds
// counterfactual-study the cells come out as printed there; with the default (loss) they do not.

const THESIS = join(packageRoot(), "data", "llm-gm-thesis");

interface StudyGame {
  path: string;
  valid_outcomes: boolean[];
  player_0_moves: (string | null)[];
  player_1_moves: (string | null)[];
  player_0_points: number[];
  player_1_points: number[];
  player_0_tokens: number[];
  player_0_player_type: string;
  player_0_rates: { win: number; loss: number; tie: number };
}
interface Summary {
  mean: number;
  sd: number | null;
}
interface MatchRow {
  player: string;
  framing: string;
  opponent: string;
  win_loss_tie: { win: number; loss: number; tie: number };
  comprehension_round: number;
  failure_rate: number;
  total_points: number;
}
interface CellRow {
  player: string;
  framing: string;
  opponent: string;
  comprehension_round: Summary;
  total_points: Summary;
  comprehension_curve: number[];
}
interface Report {
  invalid_rounds: string;
  matches: MatchRow[];
  cells: CellRow[];
}

const games = (
  JSON.parse(readFileSync(join(THESIS, "invalid-rounds-games.json"), "utf8")) as { games: StudyGame[] }
).games;

/** The study's table format: mean ± sample sd, one decimal (`f"{mean:.1f} $\pm$ {std:.1f}"`). */
const printed = (s: Summary) => `${s.mean.toFixed(1)} ± ${(s.sd ?? 0).toFixed(1)}`;

let deps: ReturnType<typeof tempDeps>;
let client: Client;

beforeAll(requireBuiltCli);
beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps);
  await importCommand.run(
    parseCommandArgs(importCommand, [
      "matches",
      "--reference",
      "llm-gm-thesis-2026-invalid-rounds",
      "--db",
      deps.dbPath,
    ]),
  );
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

const both = async () =>
  [
    await call<Report>(client, "repeated_metrics", {}),
    await call<Report>(client, "repeated_metrics", { invalid_rounds: "counterfactual-study" }),
  ] as const;

const cellOf = (report: Report, player: string, framing: string, opponent: string) =>
  report.cells.find(
    (c) => c.player === player && c.framing === framing && c.opponent === opponent,
  ) as CellRow;

describe("invalid rounds scored as the counterfactual study does", () => {
  it("ships invalid-rounds.jsonl as exactly the README mapping of the 20 study logs", () => {
    const canonical: Record<string, string> = { cooperation: "cooperate", defection: "defect" };
    const id = (m: string | null) => (m === null ? null : (canonical[m] ?? m));
    const lines = games.map((g) => {
      const [, , , , player, game, setting] = g.path.split("/") as string[];
      return JSON.stringify({
        player,
        game: game === "rps" ? "rock-paper-scissors" : "repeated-pd",
        variant: setting === "pd-alt" ? "payoff" : "base",
        framing: `${setting}/${g.player_0_player_type}`,
        opponent: {
          rps_cot_cot: "cot (same model)",
          rps_cot_pp: "pp (pattern)",
          pd_spp_srep: "srep (equilibrium sampler)",
          pd_zs_cot: "cot (same model)",
        }[g.path.split("/")[7] as string],
        rounds: g.player_0_moves.map((move, r) => ({
          move: id(move),
          opponent_move: id(g.player_1_moves[r] ?? null),
          payoff: g.player_0_points[r],
          opponent_payoff: g.player_1_points[r],
          tokens: g.player_0_tokens[r],
        })),
      });
    });
    expect(readFileSync(join(THESIS, "invalid-rounds.jsonl"), "utf8")).toBe(`${lines.join("\n")}\n`);
  });

  it("reproduces four cells of the study's comprehension tables, which the default scoring does not", async () => {
    // Tables "Round # where the Agent understood the opponent's Strategy" (eq1, pd, pd-alt); 5 logs a cell.
    const [loss, study] = await both();
    expect(loss.invalid_rounds).toBe("loss");
    expect(study.invalid_rounds).toBe("counterfactual-study");
    // [player, framing, opponent, the study's printed cell, ours by default]
    const cells: [string, string, string, string, string][] = [
      // RPS eq1, C4S cot vs cot: m = 1, 25, 1, 5 and 22 in iteration 4, whose last round (24) has no move on
      // either side: the study's 0 ≥ 0 is a success there (m = 22); ours is a failure, so no suffix reaches
      // 0.9 and m = 25 ("never"). Study: mean 54/5 = 10.8; ours 57/5 = 11.4.
      ["Claude Sonnet 4", "eq1/cot", "cot (same model)", "10.8 ± 11.8", "11.4 ± 12.5"],
      // RPS eq1, C4S cot vs pp (the opponent cycles): iteration 4's round 5 has no own move (next test):
      // m = 1 there for the study, 2 for ours; 1 in the other four.
      ["Claude Sonnet 4", "eq1/cot", "pp (pattern)", "1.0 ± 0.0", "1.2 ± 0.4"],
      // PD base, M-L spp vs srep: iteration 0 has no valid own move in any of its 16 rounds (the opponent
      // defects). The study reads each missing move as "defection": u1(D, D) = 2 ≥ u1(D, D) ⇒ all success,
      // m = 1; ours: all failures, m = 17. Others 17, 17, 16, 16 ⇒ 67/5 = 13.4 vs 83/5 = 16.6.
      ["Mistral Large (24.07)", "pd/spp", "srep (equilibrium sampler)", "13.4 ± 6.9", "16.6 ± 0.5"],
      // PD payoff variant (pd-alt), DS-R1 zs vs cot: the opponent has no move in round 16 of iteration 0
      // and rounds 13–16 of iteration 2; the study's flag is then None, a failure (m = 17 both); ours
      // judges the recorded 0 ≥ 0 a success (m = 16 and 1). Study 56/5 = 11.2; ours 39/5 = 7.8.
      ["DeepSeek-R1", "pd-alt/zs", "cot (same model)", "11.2 ± 8.0", "7.8 ± 8.0"],
    ];
    for (const [player, framing, opponent, studyCell, ourCell] of cells) {
      const label = `${player} ${framing} vs ${opponent}`;
      expect(printed(cellOf(study, player, framing, opponent).comprehension_round), label).toBe(studyCell);
      expect(printed(cellOf(loss, player, framing, opponent).comprehension_round), label).toBe(ourCell);
    }
    // Total points are the same under both (an invalid round scores 0 either way) and as the study prints.
    const points = (r: Report) => r.cells.map((c) => printed(c.total_points));
    expect(points(study)).toEqual(points(loss));
    expect(points(study)).toEqual(["4.4 ± 12.5", "19.6 ± 2.1", "18.6 ± 10.6", "30.6 ± 4.8"]);
  });

  it("scores round 5 of C4S cot vs pp (iteration 4) as a tie and a success, by hand", async () => {
    const [loss, study] = await both();
    // Points −1, 0, 1, 1, [invalid: 0], 0, 0, −1, then 16 × +1 (r9–r24).
    const index = games.findIndex((g) => g.path.includes("iteration_4/Claude Sonnet 4/rps/eq1/rps_cot_pp"));
    expect(games[index]?.player_0_moves[4]).toBeNull();
    const [ours, theirs] = [loss.matches[index], study.matches[index]] as [MatchRow, MatchRow];
    // Wins: r3, r4, r9–r24 = 18 under both. Loss: r1, r8 and (ours) r5; ties r2, r6, r7 and (study) r5.
    expect(ours.win_loss_tie).toEqual({ win: 18 / 24, loss: 3 / 24, tie: 3 / 24 });
    expect(theirs.win_loss_tie).toEqual({ win: 18 / 24, loss: 2 / 24, tie: 4 / 24 });
    // Comprehension (s_r = x_r ≥ 0): the study fails r1 and r8 only ⇒ from 1: 22/24 ≈ 0.917 ≥ 0.9, m = 1.
    // Ours also fails r5 ⇒ from 1: 21/24 = 0.875; from 2: 21/23 ≈ 0.913 ⇒ m = 2.
    expect([ours.comprehension_round, theirs.comprehension_round]).toEqual([2, 1]);
    expect([ours.failure_rate, theirs.failure_rate]).toEqual([1 / 24, 1 / 24]);
  });

  it("gives RPS win/loss/tie rates equal to the study's own player_0_rates in every log", async () => {
    const [, study] = await both();
    games.forEach((g, i) => {
      if (!g.path.includes("/rps/")) return;
      const row = study.matches[i] as MatchRow;
      expect(row.win_loss_tie.win, g.path).toBeCloseTo(g.player_0_rates.win, 12);
      expect(row.win_loss_tie.loss, g.path).toBeCloseTo(g.player_0_rates.loss, 12);
      expect(row.win_loss_tie.tie, g.path).toBeCloseTo(g.player_0_rates.tie, 12);
    });
  });

  it("counts the opponent's missing moves in the failure rate, as the study's valid rate does", async () => {
    const [loss, study] = await both();
    // DS-R1 pd-alt iteration 2: own moves all valid, the opponent has none in rounds 13–16.
    const index = games.findIndex((g) => g.path.includes("iteration_2/DeepSeek-R1/pd/pd-alt"));
    const validRate = (games[index] as StudyGame).valid_outcomes.filter(Boolean).length / 16;
    expect(validRate).toBe(0.75);
    expect((study.matches[index] as MatchRow).failure_rate).toBe(1 - validRate);
    expect((loss.matches[index] as MatchRow).failure_rate).toBe(0);
  });

  it("prints the same object on the CLI and refuses a bad value with one line naming the valid ones", async () => {
    const chunks: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => {
      chunks.push(chunk);
      return true;
    }) as typeof process.stdout.write;
    try {
      await analyzeCommand.run(
        parseCommandArgs(analyzeCommand, [
          "repeated",
          "--db",
          deps.dbPath,
          "--invalid-rounds",
          "counterfactual-study",
          "--json",
        ]),
      );
    } finally {
      process.stdout.write = write;
    }
    const [, study] = await both();
    expect(JSON.parse(chunks.join(""))).toEqual(study);

    const run = runCli(["analyze", "repeated", "--db", deps.dbPath, "--invalid-rounds", "tie"]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain('--invalid-rounds must be loss or counterfactual-study, got "tie".');

    const text = await callError(client, "repeated_metrics", { invalid_rounds: "tie" });
    expect(text).toMatch(/invalid_rounds/);
    expect(text).toMatch(/loss/);
    expect(text).toMatch(/counterfactual-study/);
  });
});
