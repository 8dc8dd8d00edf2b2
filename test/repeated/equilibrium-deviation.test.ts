import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { roundPayoffs } from "../../src/play/match-engine.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
let client: Client;

beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { clientName: "eq" });
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

interface Deviation {
  total_variation: number;
  equilibrium_strategy: Record<string, number>;
  exploitability: { raw: number; normalized: number | null };
}
interface Cell {
  player: string;
  variant: string;
  decisions: number;
  counts: Record<string, number>;
  distribution: Record<string, number>;
  equilibria: unknown[];
  deviation: Deviation;
  base_game: { base: Deviation; template_persistence: boolean } | null;
}

describe("equilibrium_deviation", () => {
  it("sets a uniform RPS player under the payoff counterfactual beside both games' equilibria", async () => {
    // A hand-made record: 24 rounds of the RPS payoff counterfactual, rock, paper, scissors in turn
    // (8 each) against an opponent that always shows scissors.
    const stage = deps.catalog.stageGame("rock-paper-scissors", "payoff");
    const cycle = ["rock", "paper", "scissors"];
    const rounds = Array.from({ length: 24 }, (_, r) => {
      const move = cycle[r % 3] as string;
      return { move, opponent_move: "scissors", ...roundPayoffs(stage, move, "scissors") };
    });
    const line = { player: "uniform", game: "rock-paper-scissors", variant: "payoff", opponent: "x", rounds };
    importMatches(deps, parseMatchesJsonl(JSON.stringify(line), "eq.jsonl", deps.catalog), "hand");

    const { cells } = await call<{ cells: Cell[] }>(client, "equilibrium_deviation", {
      game: "rock-paper-scissors",
    });
    expect(cells).toHaveLength(1);
    const [cell] = cells;
    expect(cell).toMatchObject({
      player: "uniform",
      variant: "payoff",
      framing: "unspecified",
      decisions: 24,
      counts: { rock: 8, paper: 8, scissors: 8 },
    });
    // Variant equilibrium: column indifference 3p − s = −3r + s = r − p = 0 ⇒ (r, p, s) = (0.2, 0.2, 0.6),
    // the only one. TV from (⅓, ⅓, ⅓) = ½(2·(⅓ − 0.2) + (0.6 − ⅓)) = 4/15.
    expect(cell?.equilibria).toHaveLength(1);
    expect(cell?.deviation.equilibrium_strategy.scissors).toBeCloseTo(0.6, 9);
    expect(cell?.deviation.total_variation).toBeCloseTo(4 / 15, 9);
    // Exploitability: the column player's payoff against π̂ for column j is ⅓ Σ_i u1(j, i):
    // rock (0 − 3 + 1)/3 = −⅔, paper (3 + 0 − 1)/3 = ⅔, scissors 0 ⇒ best ⅔; equilibrium value 0;
    // payoff range 3 − (−3) = 6 ⇒ normalized ⅔ / 6 = 1/9.
    expect(cell?.deviation.exploitability.raw).toBeCloseTo(2 / 3, 9);
    expect(cell?.deviation.exploitability.normalized).toBeCloseTo(1 / 9, 9);
    // The base game's equilibrium is uniform: TV 0 < 4/15 — template persistence.
    expect(cell?.base_game?.base.total_variation).toBeCloseTo(0, 9);
    expect(cell?.base_game?.template_persistence).toBe(true);
    // The text names the exploitability the report and compare give (the share of the range), and its points.
    const answer = await client.callTool({
      name: "equilibrium_deviation",
      arguments: { game: "rock-paper-scissors" },
    });
    const text = (answer.content as { type: string; text: string }[])[0]?.text;
    expect(text).toContain("exploitability 0.111 of the opponent's payoff range (0.667 points)");
  });

  it("counts one-shot decisions too, leaves base_game out for the base variant, and names bad ids", async () => {
    // Two one-shot prisoners-dilemma decisions, both Cooperate; the only equilibrium is (defect, defect).
    for (const seed of [1, 2]) {
      const view = await call<{ match_id: string }>(client, "start_match", {
        game: "prisoners-dilemma",
        framing: "business+familiar",
        seed,
      });
      await call(client, "submit_move", { match_id: view.match_id, round: 1, choice: "Cooperate" });
    }
    const { cells } = await call<{ cells: Cell[] }>(client, "equilibrium_deviation", {
      game: "prisoners-dilemma",
      player: "eq@1.0.0",
    });
    expect(cells).toHaveLength(1);
    expect(cells[0]).toMatchObject({
      decisions: 2,
      distribution: { cooperate: 1, defect: 0 },
      base_game: null,
      // TV from (1, 0) to (0, 1) = 1.
      deviation: { total_variation: 1, equilibrium_strategy: { cooperate: 0, defect: 1 } },
    });
    expect(await callError(client, "equilibrium_deviation", { game: "chess" })).toMatch(
      /Unknown game "chess"; valid: .*repeated-pd/,
    );
  });
});
