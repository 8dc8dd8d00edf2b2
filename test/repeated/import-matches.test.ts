import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { importCommand } from "../../src/cli/import.js";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { packageRoot } from "../../src/package-root.js";
import { call, connectClient, tempDeps } from "../support/harness.js";

const FIXTURES = join(packageRoot(), "test", "fixtures");
const THESIS = join(packageRoot(), "data", "llm-gm-thesis");

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
interface Report {
  matches: Record<string, unknown>[];
  cells: (Record<string, unknown> & { total_points: Summary; comprehension_curve: number[] })[];
}

async function runCli(argv: string[]): Promise<void> {
  await importCommand.run(parseCommandArgs(importCommand, ["matches", ...argv]));
}

describe("import matches", () => {
  it("imports a hand-written file and repeated_metrics measures it as computed by hand", async () => {
    await runCli([join(FIXTURES, "imported-matches.jsonl"), "--db", deps.dbPath, "--source", "hand"]);
    const report = await call<Report>(client, "repeated_metrics", { players: ["model-x"] });
    // Match A: r1 invalid (0/0), r2 C vs D (1/6), r3–16 C vs C (4/4 each), tokens 100, 300, 200 × 14.
    //   total = 0 + 1 + 14·4 = 57; cooperation 15/16; π̂ over the 15 valid moves: C = 1;
    //   win 0, loss 2/16 (r1 invalid, r2 1 < 6), tie 14/16; failure 1/16; efficiency 57/300·1000 = 190.
    //   Comprehension (match): s = F (invalid), F (1 < u1(D,D) = 2), then 14 × T;
    //   from 1: 14/16 = 0.875 < 0.9; from 2: 14/15 ≈ 0.933 ⇒ m = 2.
    // Match B: r1 D vs C (6/1), r2–16 D vs D (2/2); no tokens.
    //   total = 6 + 15·2 = 36; cooperation 0; win 1/16, tie 15/16; every s_r true ⇒ m = 1; efficiency null.
    expect(report.matches).toHaveLength(2);
    expect(report.matches[0]).toMatchObject({
      source: "hand",
      framing: "their-prompt",
      opponent: "tft-elsewhere",
      total_points: 57,
      cooperation_rate: 15 / 16,
      action_distribution: { cooperate: 1, defect: 0 },
      win_loss_tie: { win: 0, loss: 2 / 16, tie: 14 / 16 },
      comprehension_round: 2,
      failure_rate: 1 / 16,
      invalid_attempts: 0,
      efficiency: 190,
    });
    expect(report.matches[1]).toMatchObject({
      total_points: 36,
      cooperation_rate: 0,
      win_loss_tie: { win: 1 / 16, loss: 0, tie: 15 / 16 },
      comprehension_round: 1,
      efficiency: null,
    });
    // One cell: mean points (57 + 36)/2 = 46.5, sd = √((10.5² + 10.5²)/1) = √220.5;
    // m mean 1.5; efficiency over the one match that has tokens.
    const [cell] = report.cells;
    expect(report.cells).toHaveLength(1);
    expect(cell?.total_points.mean).toBe(46.5);
    expect(cell?.total_points.sd).toBeCloseTo(Math.sqrt(220.5), 12);
    expect(cell).toMatchObject({
      matches: 2,
      comprehension_round: { mean: 1.5 },
      efficiency: { mean: 190, sd: null, n: 1 },
    });
    // Curve: A = [14/16, 14/15, 1, …], B = [1, 1, …] ⇒ mean [(0.875 + 1)/2, (14/15 + 1)/2, 1, …].
    expect(cell?.comprehension_curve).toHaveLength(16);
    expect(cell?.comprehension_curve[0]).toBeCloseTo(0.9375, 12);
    expect(cell?.comprehension_curve[1]).toBeCloseTo((14 / 15 + 1) / 2, 12);
    expect(cell?.comprehension_curve.slice(2)).toEqual(new Array(14).fill(1));
  });

  it("refuses a file with one bad line, naming line, round and both values, and imports nothing", async () => {
    const bad = join(FIXTURES, "imported-matches-bad-payoff.jsonl");
    await expect(runCli([bad, "--db", deps.dbPath])).rejects.toThrow(
      "imported-matches-bad-payoff.jsonl: line 3: round 5: payoff 3 differs from repeated-pd (base)'s 2 for (defect, defect).",
    );
    expect(deps.store.listMatches({})).toEqual([]);
    const text = readFileSync(join(FIXTURES, "imported-matches.jsonl"), "utf8");
    const cases: [string, RegExp][] = [
      [`${text}{not json\n`, /line 3: not a JSON object/],
      [text.replace('"repeated-pd"', '"chess"'), /line 1: Unknown game "chess"/],
      [
        text.replace('"move": "cooperate"', '"move": "stag"'),
        /line 1: round 2: move "stag" is not an action of repeated-pd/,
      ],
      [text.replace('"variant": "base"', '"variant": "other"'), /line 1: variant: /],
    ];
    for (const [content, message] of cases) {
      expect(() => parseMatchesJsonl(content, "f.jsonl", deps.catalog)).toThrow(message);
    }
    // A wrong round count (a one-round line of a 16-round game).
    const short = JSON.stringify({ ...JSON.parse(text.split("\n")[1] as string), rounds: [] });
    expect(() => parseMatchesJsonl(short, "f.jsonl", deps.catalog)).toThrow(/line 1: rounds: /);
    const fifteen = JSON.parse(text.split("\n")[1] as string);
    fifteen.rounds.pop();
    expect(() => parseMatchesJsonl(JSON.stringify(fifteen), "f.jsonl", deps.catalog)).toThrow(
      "f.jsonl: line 1: 15 round(s), but repeated-pd is played over 16.",
    );
    // The same source twice would count its matches twice.
    const good = parseMatchesJsonl(text, "f.jsonl", deps.catalog);
    importMatches(deps, good, "once");
    expect(() => importMatches(deps, good, "once")).toThrow(
      /Source "once" was already imported \(2 matches\)/,
    );
  });

  it("imports the two shipped counterfactual-study traces by reference and reproduces their point totals", async () => {
    const files = [
      "pd-stag-hunt-payoffs-stag-hare-labels-vs-pattern.json",
      "rps-reversed-names-vs-counter-last.json",
    ];
    for (const f of files) expect(existsSync(join(THESIS, f)), f).toBe(true);
    interface Trace {
      player_0_moves: (string | null)[];
      player_1_moves: (string | null)[];
      player_0_points: number[];
      player_1_points: number[];
      player_0_tokens: number[];
    }
    // README: PD file stag = cooperate, hare = defect (joint counterfactual: stag-hunt payoffs, stag/hare
    // labels); RPS file surface "paper" = canonical rock, "rock" = paper (label counterfactual).
    const toJsonl = (file: string, game: string, variant: string, canonical: Record<string, string>) => {
      const trace = JSON.parse(readFileSync(join(THESIS, file), "utf8")) as Trace;
      const id = (m: string | null) => (m === null ? null : (canonical[m] as string));
      return JSON.stringify({
        player: "claude-sonnet-4",
        game,
        variant,
        framing: file.replace(/\.json$/, ""),
        opponent: file.startsWith("pd") ? "pattern (hare, stag)" : "beats-last",
        rounds: trace.player_0_moves.map((move, r) => ({
          move: id(move),
          opponent_move: id(trace.player_1_moves[r] ?? null),
          payoff: trace.player_0_points[r],
          opponent_payoff: trace.player_1_points[r],
          tokens: trace.player_0_tokens[r],
        })),
      });
    };
    const jsonl = `${[
      toJsonl(files[0] as string, "repeated-pd", "joint", { stag: "cooperate", hare: "defect" }),
      toJsonl(files[1] as string, "rock-paper-scissors", "label", {
        paper: "rock",
        rock: "paper",
        scissors: "scissors",
      }),
    ].join("\n")}\n`;
    // The shipped traces.jsonl is exactly this README mapping of the two logs.
    expect(readFileSync(join(THESIS, "traces.jsonl"), "utf8")).toBe(jsonl);
    await runCli(["--reference", "llm-gm-thesis-2026", "--db", deps.dbPath]);
    const report = await call<Report>(client, "repeated_metrics", {});
    // PD points 1,4,1,4,2,6,1,4,2,6,2,6,2,6,2,6: Σ = 55.
    // RPS: +1 in rounds 2, 4, 7, 13, 20 (5), −1 in 13 rounds ⇒ Σ = 5 − 13 = −8.
    expect(report.matches.map((m) => [m.game, m.variant, m.total_points])).toEqual([
      ["repeated-pd", "joint", 55],
      ["rock-paper-scissors", "label", -8],
    ]);
  });
});
