import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RoundView as View } from "../../src/play/match-view.js";
import type { MoveResult as Moved } from "../../src/play/submit-move.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

// One seat of an agent-vs-agent match erased mid-match (a participant's withdrawal) used to leave the other
// seat open for ever: its move waited as "pending" with nothing to meet it, and join_match seated a
// newcomer at round 1 beside a seat at round 3, each then waiting for a round the other would never play.

let deps: ReturnType<typeof tempDeps>;
let alice: Client;
let bob: Client;
let carol: Client;

beforeEach(async () => {
  deps = tempDeps();
  alice = await connectClient(deps, { player: "alice" });
  bob = await connectClient(deps, { player: "bob" });
  carol = await connectClient(deps, { player: "carol" });
});
afterEach(async () => {
  for (const client of [alice, bob, carol]) await client.close();
  deps.dispose();
});

/** Alice's seat after two rounds played with Bob, and Bob's play erased. */
async function seatWithoutPartner(): Promise<string> {
  const first = await call<View>(alice, "start_match", {
    game: "repeated-pd",
    framing: "repeated-plain+familiar",
    opponent: "agent",
    seed: 6,
  });
  const second = await call<View>(bob, "join_match", { match_id: first.match_id });
  for (const round of [1, 2]) {
    await call(alice, "submit_move", { match_id: first.match_id, round, choice: "Cooperate" });
    await call(bob, "submit_move", { match_id: second.match_id, round, choice: "Cooperate" });
  }
  deps.store.eraseFromRecord({ player: "bob" });
  expect(deps.store.getMatch(first.match_id)).toMatchObject({ partner_match_id: null, next_round: 3 });
  return first.match_id;
}

describe("an agent seat whose other seat was erased mid-match", () => {
  it("refuses a move, saying the match cannot go on, and records nothing", async () => {
    const match_id = await seatWithoutPartner();
    expect(await callError(alice, "submit_move", { match_id, round: 3, choice: "Cooperate" })).toBe(
      `Match "${match_id}" cannot go on: the other player's seat was erased from the record after round 2, so no move can meet yours; start a new match.`,
    );
    expect(deps.store.getDecision(match_id, 3)).toBeUndefined();
    expect(deps.store.listAttempts(match_id, 3)).toEqual([]);
    // The two rounds played stay as they were: (Cooperate, Cooperate) = 4 each.
    const transcript = await call<{ total_points: number; rounds_played: number }>(alice, "get_match", {
      match_id,
    });
    expect(transcript).toMatchObject({ rounds_played: 2, total_points: 8 });
  });

  it("cannot be joined by a newcomer, who would start at round 1 beside round 3", async () => {
    const match_id = await seatWithoutPartner();
    expect(await callError(carol, "join_match", { match_id })).toBe(
      `Match "${match_id}" cannot be joined: it was played to round 2 with another player, whose seat was erased from the record; start a new match with opponent "agent".`,
    );
    expect(deps.store.getMatch(match_id)?.partner_match_id).toBeNull();
  });

  it("is still joined and played when it lost its partner before any round was decided", async () => {
    const first = await call<View>(alice, "start_match", {
      game: "repeated-pd",
      framing: "repeated-plain+familiar",
      opponent: "agent",
      seed: 7,
    });
    await call(bob, "join_match", { match_id: first.match_id });
    await call(alice, "submit_move", { match_id: first.match_id, round: 1, choice: "Defect" });
    deps.store.eraseFromRecord({ player: "bob" });
    // Round 1 is still open on Alice's seat: a newcomer takes the seat and meets her waiting move.
    const seat = await call<View>(carol, "join_match", { match_id: first.match_id });
    const moved = await call<Moved>(carol, "submit_move", {
      match_id: seat.match_id,
      round: 1,
      choice: "Cooperate",
    });
    // (Cooperate, Defect) = 1 for Carol, 6 for Alice.
    expect(moved).toMatchObject({ status: "decided", your_points: 1, opponent_points: 6 });
  });
});
