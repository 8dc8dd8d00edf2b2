import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
let client: Client;

beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { player: "analyst" });
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

async function play(framing: string, choice: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const view = await call<{ match_id: string }>(client, "start_match", {
      game: "prisoners-dilemma",
      framing,
      seed: i,
    });
    await call(client, "submit_move", { match_id: view.match_id, round: 1, choice });
  }
}

describe("analysis tools over MCP", () => {
  it("equilibria: snowdrift has two pure equilibria and the mixed one with P(cooperate) = 1/6", async () => {
    // Indifference of the column player's opponent: 5q + 3(1−q) = 10q + 2(1−q) ⇒ 1 − q·(... ) ⇒ q = 1/6.
    const out = await call<{ equilibria: { kind: string; row: Record<string, number> }[] }>(
      client,
      "equilibria",
      {
        game: "snowdrift",
      },
    );
    expect(out.equilibria.map((e) => e.kind).sort()).toEqual(["mixed", "pure", "pure"]);
    const mixed = out.equilibria.find((e) => e.kind === "mixed");
    expect(mixed?.row.cooperate).toBeCloseTo(1 / 6, 9);
    expect(await callError(client, "equilibria", { game: "go" })).toMatch(/Unknown game "go"/);
  });

  it("payoff_sensitivity: λ̂ of a cell computed by hand from the record", async () => {
    // 3 defections out of 3 under business: p̃ = (0 + ½)/(3 + 1) = 1/8, logit = ln(1/7) = −1.94591;
    // Δu = (½·5 + ½·2 − ½·10 − ½·3)/(10 − 2) = −0.375 ⇒ λ̂ = 1.94591/0.375 = 5.18910.
    await play("business+familiar", "Defect", 3);
    // 3 cooperations under team: p̃ = 3.5/4 = 7/8, logit = ln 7 > 0 ⇒ λ̂ = ln7/−0.375 < 0 ⇒ clamped to 0.
    await play("team+familiar", "Cooperate", 3);
    const out = await call<{ cells: { framing: string; lambda: number }[]; games: { v_lambda: number }[] }>(
      client,
      "payoff_sensitivity",
      { bootstrap: 200 },
    );
    const lambda = Object.fromEntries(out.cells.map((c) => [c.framing, c.lambda]));
    expect(lambda["business+familiar"]).toBeCloseTo(Math.log(7) / 0.375, 9);
    expect(lambda["team+familiar"]).toBe(0);
    // Population variance of {5.1891, 0} = (5.1891/2)² = 6.7317.
    expect(out.games[0]?.v_lambda).toBeCloseTo((Math.log(7) / 0.375 / 2) ** 2, 9);
  });

  it("power: the textbook two-proportion case needs 388 trials per framing", async () => {
    // n = (1.959964·√(2·0.55·0.45) + 0.841621·√(0.25 + 0.24))² / 0.1² = 387.34 ⇒ 388.
    const out = await call<{ shift_test: { trials_per_framing: number } }>(client, "power", {
      baseline: 0.5,
      delta: 0.1,
      simulations: 20,
      bootstrap: 200,
    });
    expect(out.shift_test.trials_per_framing).toBe(388);
    expect(await callError(client, "power", { baseline: 0.5 })).toMatch(
      /exactly one of delta .* or comparison/,
    );
  });

  it("power: a true R out of reach from the baseline is the caller's to change, in one sentence", async () => {
    // The lowest R from a baseline of ½ is 1 − JSD((½, ½), (1, 0))/ln 2 = 0.6887 (see the CLI's test).
    expect(await callError(client, "power", { baseline: 0.5, delta: 0.1, true_r: 0.5 })).toBe(
      "True R 0.5 is out of reach from a baseline rate of 0.5: even the other framing always choosing one action gives R = 0.689; give a true R of at least 0.689 or a baseline farther from ½.",
    );
  });
});
