import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RoundView as View } from "../../src/play/match-view.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
let client: Client;

beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { clientName: "play-loop" });
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

describe("one-shot play loop over MCP", () => {
  it("records a decision with the payoffs of the game and answers blind to the condition", async () => {
    // always-defect opponent: choosing Cooperate in the prisoners-dilemma earns u1(C, D) = 2.
    const view = await call<View>(client, "start_match", {
      game: "prisoners-dilemma",
      framing: "business+familiar",
      opponent: "always-defect",
      seed: 7,
    });
    expect(view.round).toBe(1);
    expect(view.rounds).toBe(1);
    expect([...view.labels].sort()).toEqual(["Cooperate", "Defect"]);
    expect(JSON.stringify(view)).not.toMatch(/business|prisoner/i);
    const moved = await call(client, "submit_move", {
      match_id: view.match_id,
      round: 1,
      choice: "**Cooperate**",
    });
    expect(moved).toMatchObject({
      status: "decided",
      your_choice: "Cooperate",
      opponent_choice: "Defect",
      your_points: 2,
      opponent_points: 10,
      finished: true,
      total_points: 2,
      next: null,
      replayed: false,
    });
    const row = deps.store.getDecision(view.match_id, 1);
    expect(row).toMatchObject({
      action: "cooperate",
      opponent_action: "defect",
      payoff: 2,
      raw_text: "**Cooperate**",
    });
    const session = deps.store.getSession(row?.session_id as string);
    expect(session).toMatchObject({
      player: "play-loop@1.0.0",
      client_name: "play-loop",
      client_version: "1.0.0",
    });
  });

  it("is idempotent per round and refuses a different choice for a decided round", async () => {
    const view = await call<View>(client, "start_match", {
      game: "stag-hunt",
      framing: "team+familiar",
      opponent: "always-cooperate",
      seed: 1,
    });
    const first = await call(client, "submit_move", { match_id: view.match_id, round: 1, choice: "defect" });
    const again = await call(client, "submit_move", { match_id: view.match_id, round: 1, choice: "Defect." });
    expect(again).toEqual({ ...first, replayed: true });
    const refused = await callError(client, "submit_move", {
      match_id: view.match_id,
      round: 1,
      choice: "cooperate",
    });
    expect(refused).toMatch(/already decided as "Defect"/);
    expect(deps.store.listAttempts(view.match_id, 1)).toHaveLength(1);
  });

  it("keeps invalid replies verbatim, names the valid labels, and voids the round after five", async () => {
    const view = await call<View>(client, "start_match", { game: "harmony", framing: "relabeled", seed: 3 });
    const labels = view.labels;
    const replies = ["", `${labels[0]} or ${labels[1]}`, "I refuse", "maybe", "'; DROP TABLE decisions; --"];
    for (const [i, choice] of replies.slice(0, 4).entries()) {
      const message = await callError(client, "submit_move", { match_id: view.match_id, round: 1, choice });
      expect(message).toContain(`invalid reply ${i + 1} of 5`);
      for (const label of labels) expect(message).toContain(label);
    }
    const voided = await call(client, "submit_move", {
      match_id: view.match_id,
      round: 1,
      choice: replies[4],
    });
    expect(voided).toMatchObject({
      status: "void",
      your_choice: null,
      your_points: 0,
      opponent_points: 0,
      finished: true,
    });
    expect(deps.store.listAttempts(view.match_id, 1).map((a) => a.raw_text)).toEqual(replies);
  });

  it("answers every mistake with one clear sentence and changes nothing", async () => {
    const view = await call<View>(client, "start_match", { game: "snowdrift", seed: 5 });
    expect(await callError(client, "submit_move", { match_id: "nope", round: 1, choice: "x" })).toMatch(
      /No match with id "nope"/,
    );
    expect(
      await callError(client, "submit_move", { match_id: view.match_id, round: 2, choice: "x" }),
    ).toMatch(/Round 2 is not open .* waiting for round 1/);
    expect(
      await callError(client, "submit_move", {
        match_id: view.match_id,
        round: 1,
        choice: "x".repeat(2_000_000),
      }),
    ).toMatch(/: choice is limited to 20000 characters \(received 2,000,000\)\.$/);
    expect(await callError(client, "start_match", { game: "chess" })).toMatch(
      /Unknown game "chess"; valid: .*snowdrift/,
    );
    expect(await callError(client, "start_match", { game: "snowdrift", framing: "rps-plain" })).toMatch(
      /Framing "rps-plain" does not present snowdrift .*valid framings: .*business/,
    );
    expect(deps.store.listAttempts(view.match_id, 1)).toEqual([]);
    expect(deps.store.getMatch(view.match_id)?.next_round).toBe(1);
  });
});
