import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RoundView as View } from "../../src/play/match-view.js";
import type { MoveResult as Moved } from "../../src/play/submit-move.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

// A joiner that answers on the match id it was invited with (the first seat's) instead of its own seat's
// used to move for the other player: the move was recorded as the first seat's, and the first seat's own
// answer was then refused as "already answered".

let deps: ReturnType<typeof tempDeps>;
let alice: Client;
let bob: Client;

beforeEach(async () => {
  deps = tempDeps();
  // Two connections over one record, both the local principal (no tokens), as two agents on one host.
  alice = await connectClient(deps, { clientName: "alice" });
  bob = await connectClient(deps, { clientName: "bob" });
});
afterEach(async () => {
  await alice.close();
  await bob.close();
  deps.dispose();
});

async function agentMatch(): Promise<{ first: View; second: View }> {
  const first = await call<View>(alice, "start_match", {
    game: "repeated-pd",
    framing: "repeated-plain+familiar",
    opponent: "agent",
    seed: 8,
  });
  const second = await call<View>(bob, "join_match", { match_id: first.match_id });
  return { first, second };
}

describe("a seat of an agent-vs-agent match", () => {
  it("refuses the joiner's move on the first seat's match, naming its own seat, and records nothing", async () => {
    const { first, second } = await agentMatch();
    const refused = await callError(bob, "submit_move", {
      match_id: first.match_id,
      round: 1,
      choice: "Defect",
    });
    expect(refused).toBe(
      `Match "${first.match_id}" is the other player's seat of your agent-vs-agent match; your seat is match "${second.match_id}": answer with submit_move on match_id "${second.match_id}".`,
    );
    // Nothing of Bob's reply reached Alice's seat: no decision, no attempt.
    expect(deps.store.getDecision(first.match_id, 1)).toBeUndefined();
    expect(deps.store.listAttempts(first.match_id, 1)).toEqual([]);

    // Each seat then plays its own: (Cooperate, Defect) scores 1 for Alice and 6 for Bob.
    const waiting = await call<Moved>(alice, "submit_move", {
      match_id: first.match_id,
      round: 1,
      choice: "Cooperate",
    });
    expect(waiting.status).toBe("pending");
    const decided = await call<Moved>(bob, "submit_move", {
      match_id: second.match_id,
      round: 1,
      choice: "Defect",
    });
    expect(decided).toMatchObject({ status: "decided", your_points: 6, opponent_points: 1 });
    expect(deps.store.getDecision(first.match_id, 1)).toMatchObject({
      action: "cooperate",
      opponent_action: "defect",
      payoff: 1,
    });
  });

  it("refuses the first seat's move on the joiner's match the same way", async () => {
    const { first, second } = await agentMatch();
    expect(
      await callError(alice, "submit_move", { match_id: second.match_id, round: 1, choice: "Cooperate" }),
    ).toBe(
      `Match "${second.match_id}" is the other player's seat of your agent-vs-agent match; your seat is match "${first.match_id}": answer with submit_move on match_id "${first.match_id}".`,
    );
    expect(deps.store.listAttempts(second.match_id, 1)).toEqual([]);
  });

  it("still lets one connection that took both seats play both (self-play)", async () => {
    const first = await call<View>(alice, "start_match", {
      game: "repeated-pd",
      framing: "repeated-plain+familiar",
      opponent: "agent",
      seed: 9,
    });
    const second = await call<View>(alice, "join_match", { match_id: first.match_id });
    await call(alice, "submit_move", { match_id: first.match_id, round: 1, choice: "Defect" });
    const decided = await call<Moved>(alice, "submit_move", {
      match_id: second.match_id,
      round: 1,
      choice: "Defect",
    });
    // (Defect, Defect) = 2 each.
    expect(decided).toMatchObject({ status: "decided", your_points: 2, opponent_points: 2 });
  });
  it("lets one player take both seats over two connections (a host that reconnected between them)", async () => {
    const first = await call<View>(alice, "start_match", {
      game: "repeated-pd",
      framing: "repeated-plain+familiar",
      opponent: "agent",
      player: "same-model",
      seed: 10,
    });
    const second = await call<View>(bob, "join_match", { match_id: first.match_id, player: "same-model" });
    // The second connection holds seat B and answers seat A too: one player, self-play.
    await call(bob, "submit_move", { match_id: first.match_id, round: 1, choice: "Cooperate" });
    const decided = await call<Moved>(bob, "submit_move", {
      match_id: second.match_id,
      round: 1,
      choice: "Cooperate",
    });
    // (Cooperate, Cooperate) = 4 each.
    expect(decided).toMatchObject({ status: "decided", your_points: 4, opponent_points: 4 });
  });
});
