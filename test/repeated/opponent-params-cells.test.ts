import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { parse } from "csv-parse/sync";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { exportCommand } from "../../src/cli/export.js";
import { call, connectClient, tempDeps } from "../support/harness.js";

// One opponent id with other params is another opponent: pattern of rock alone and pattern of scissors
// alone are two cells of repeated play, not one cell whose mean ± sd mixes a winning and a losing match.

let deps: ReturnType<typeof tempDeps>;
let client: Client;

beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps);
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

interface Summary {
  mean: number;
  sd: number | null;
  n: number;
}
interface Cell {
  opponent: string;
  opponent_params: Record<string, unknown>;
  matches: number;
  total_points: Summary;
  comprehension_round: Summary;
  action_distribution: Record<string, Summary> | null;
  failure_rate: Summary;
}
interface Report {
  matches: { opponent_params: Record<string, unknown>; action_distribution: Record<string, number> | null }[];
  cells: Cell[];
}

const ROCK = { cycle: ["rock"] };
const SCISSORS = { cycle: ["scissors"] };

/** Plays one 24-round rock-paper-scissors match answering the same choice every round. */
async function playAlways(matchId: string, choice: string): Promise<void> {
  for (let round = 1; round <= 24; round++) {
    await call(client, "submit_move", { match_id: matchId, round, choice, tokens: 10 });
  }
}

/** The text line of the cell whose opponent reads `opponent`. */
const lineOf = (text: string, opponent: string) =>
  text.split("\n").find((line) => line.includes(`| vs ${opponent} |`));

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
}

describe("repeated play against one opponent id with two sets of params", () => {
  it("a study listing pattern twice gives two cells: Paper wins every round against rock, loses every round against scissors", async () => {
    const study = await call<{ study_id: string; cells: number }>(client, "register_study", {
      name: "two patterns",
      games: ["rock-paper-scissors"],
      framings: ["rps-plain+familiar"],
      opponents: [
        { id: "pattern", params: ROCK },
        { id: "pattern", params: SCISSORS },
      ],
      trials_per_cell: 2,
      seed: 3,
    });
    expect(study.cells).toBe(2);
    for (let t = 0; t < 4; t++) {
      const next = await call<{ trial: { match_id: string } }>(client, "next_trial", {
        study_id: study.study_id,
        player: "s-p",
      });
      await playAlways(next.trial.match_id, "Paper");
    }
    const result = await client.callTool({
      name: "repeated_metrics",
      arguments: { study_id: study.study_id },
    });
    const report = result.structuredContent as unknown as Report;
    expect(report.cells).toHaveLength(2);
    const vsRock = report.cells.find((c) => JSON.stringify(c.opponent_params) === JSON.stringify(ROCK));
    const vsScissors = report.cells.find(
      (c) => JSON.stringify(c.opponent_params) === JSON.stringify(SCISSORS),
    );
    // Paper against rock: +1 in each of 24 rounds = 24 in both matches, every round a success ⇒ m = 1.
    expect(vsRock).toMatchObject({
      opponent: "pattern",
      matches: 2,
      total_points: { mean: 24, sd: 0, n: 2 },
      comprehension_round: { mean: 1, sd: 0, n: 2 },
    });
    // Paper against scissors: −1 in each of 24 rounds = −24, no round a success ⇒ never, m = N + 1 = 25.
    expect(vsScissors).toMatchObject({
      opponent: "pattern",
      matches: 2,
      total_points: { mean: -24, sd: 0, n: 2 },
      comprehension_round: { mean: 25, sd: 0, n: 2 },
    });
    // The text table names the params, so the two rows are told apart.
    const text = textOf(result);
    expect(lineOf(text, 'pattern {"cycle":["rock"]}')).toContain("n=2 | points 24.0 ± 0.0");
    expect(lineOf(text, 'pattern {"cycle":["scissors"]}')).toContain("n=2 | points -24.0 ± 0.0");
    // The opponents filter still goes by id: both cells pass it.
    const filtered = await call<Report>(client, "repeated_metrics", { opponents: ["pattern"] });
    expect(filtered.cells.map((c) => c.total_points.mean).sort((a, b) => a - b)).toEqual([-24, 24]);
    // The report's repeated section reads the same two cells.
    const data = await call<{
      repeated: { opponent_params: Record<string, unknown>; mean_total_points: number }[];
    }>(client, "report", { study_id: study.study_id });
    expect(data.repeated.map((c) => [c.opponent_params, c.mean_total_points])).toEqual([
      [ROCK, 24],
      [SCISSORS, -24],
    ]);
  });

  it("ad-hoc matches outside a study are two cells too, compare takes them as two conditions, the matches export tells them apart", async () => {
    // Two players, each two matches against either pattern: "paper" answers Paper, "rock" answers Rock.
    for (const [player, choice] of [
      ["paper", "Paper"],
      ["rock", "Rock"],
    ] as const) {
      for (const params of [ROCK, SCISSORS, ROCK, SCISSORS]) {
        const start = await call<{ match_id: string }>(client, "start_match", {
          game: "rock-paper-scissors",
          framing: "rps-plain+familiar",
          opponent: "pattern",
          opponent_params: params,
          seed: 1,
          player,
        });
        await playAlways(start.match_id, choice);
      }
    }
    const report = await call<Report>(client, "repeated_metrics", { players: ["rock"] });
    // Rock against rock ties every round (0), against scissors wins every round (24).
    expect(report.cells.map((c) => [c.opponent_params, c.total_points])).toEqual([
      [ROCK, { mean: 0, sd: 0, n: 2 }],
      [SCISSORS, { mean: 24, sd: 0, n: 2 }],
    ]);
    const compared = await call<{
      pairs: {
        measure: string;
        cells_used: { opponent?: string; opponent_params?: Record<string, unknown> }[];
      }[];
    }>(client, "compare", { bootstrap: 200 });
    const points = compared.pairs.find((p) => p.measure === "points");
    expect(points?.cells_used.map((c) => [c.opponent, c.opponent_params])).toEqual([
      ["pattern", ROCK],
      ["pattern", SCISSORS],
    ]);
    // The matches export carries the params beside the opponent, so a table grouped by both keeps them apart.
    const csv = join(deps.dir, "matches.csv");
    await exportCommand.run(
      parseCommandArgs(exportCommand, ["matches", "--db", deps.dbPath, "--players", "rock", "--out", csv]),
    );
    const rows = parse(readFileSync(csv, "utf8"), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => `${r.opponent} ${r.opponent_params} ${r.total_points}`).sort()).toEqual([
      'pattern {"cycle":["rock"]} 0',
      'pattern {"cycle":["rock"]} 0',
      'pattern {"cycle":["scissors"]} 24',
      'pattern {"cycle":["scissors"]} 24',
    ]);
  });
});

/** Five unreadable replies settle a round without a valid move: every one of a 16-round match so. */
async function playVoid({ match_id }: { match_id: string }): Promise<void> {
  for (let round = 1; round <= 16; round++) {
    for (let attempt = 0; attempt < 5; attempt++) {
      await client.callTool({
        name: "submit_move",
        arguments: { match_id, round, choice: "pass", tokens: 10 },
      });
    }
  }
}

describe("a match without a valid move in the action distribution", () => {
  it("has no distribution (null), and the cell's mean distribution is over the matches that have one", async () => {
    const match = {
      game: "repeated-pd",
      framing: "repeated-plain+familiar",
      opponent: "always-defect",
      player: "v-p",
    };
    const defecting = await call<{ match_id: string }>(client, "start_match", { ...match, seed: 1 });
    for (let round = 1; round <= 16; round++) {
      await call(client, "submit_move", {
        match_id: defecting.match_id,
        round,
        choice: "Defect",
        tokens: 10,
      });
    }
    await playVoid(await call<{ match_id: string }>(client, "start_match", { ...match, seed: 2 }));
    const report = await call<Report>(client, "repeated_metrics", { players: ["v-p"] });
    expect(report.matches.map((m) => m.action_distribution)).toEqual([{ cooperate: 0, defect: 1 }, null]);
    const [cell] = report.cells;
    // π̂ is over valid moves: only the first match has one, so the mean is its distribution, n = 1, and it
    // sums to 1 (an all-zero vector from the void match made defect 0.5 and the sum 0.5).
    expect(cell?.action_distribution).toEqual({
      cooperate: { mean: 0, sd: null, n: 1 },
      defect: { mean: 1, sd: null, n: 1 },
    });
    // The void match still counts where every round does: failure rate 0 and 1, mean 0.5 over 2 matches.
    expect(cell?.matches).toBe(2);
    expect(cell?.failure_rate).toMatchObject({ mean: 0.5, n: 2 });
    // A cell of void matches alone has no distribution at all.
    await playVoid(
      await call<{ match_id: string }>(client, "start_match", { ...match, player: "w-p", seed: 3 }),
    );
    const voidOnly = await call<Report>(client, "repeated_metrics", { players: ["w-p"] });
    expect(voidOnly.cells[0]?.action_distribution).toBeNull();
  });
});
