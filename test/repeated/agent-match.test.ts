import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RoundView as View } from "../../src/play/match-view.js";
import type { MoveResult as Moved } from "../../src/play/submit-move.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
let alice: Client;
let bob: Client;

beforeEach(async () => {
  deps = tempDeps();
  // Two connections = two createServer instances over the same record (both the local principal).
  alice = await connectClient(deps, { clientName: "alice" });
  bob = await connectClient(deps, { clientName: "bob" });
});
afterEach(async () => {
  await alice.close();
  await bob.close();
  deps.dispose();
});

const C = "Cooperate";
const D = "Defect";
const LABELS = /cooperate|defect/i;

async function transcript(client: Client, match_id: string): Promise<Record<string, unknown>> {
  return call(client, "get_match", { match_id });
}

describe("agent vs agent", () => {
  it("plays a full repeated-pd between two clients, revealing moves only when both are in", async () => {
    const a = await call<View>(alice, "start_match", {
      game: "repeated-pd",
      framing: "repeated-plain+familiar",
      opponent: "agent",
      seed: 21,
    });
    const b = await call<View>(bob, "join_match", { match_id: a.match_id });
    expect(b.match_id).not.toBe(a.match_id);
    expect(b.round).toBe(1);
    expect(deps.store.getMatch(a.match_id)?.partner_match_id).toBe(b.match_id);
    expect(deps.store.getMatch(b.match_id)).toMatchObject({
      partner_match_id: a.match_id,
      framing: "repeated-plain+familiar",
    });
    expect(await callError(bob, "join_match", { match_id: a.match_id })).toMatch(/already has both players/);

    const ours = [C, C, D, D, C, C, C, D, C, C, C, C, D, C, C, C];
    const theirs = [C, D, C, D, C, C, D, C, C, C, C, D, C, C, C, D];
    // (C,C)=4,4 (C,D)=1,6 (D,C)=6,1 (D,D)=2,2, round by round (Alice, Bob):
    // 4,4 1,6 6,1 2,2 4,4 4,4 1,6 6,1 4,4 4,4 4,4 1,6 6,1 4,4 4,4 1,6
    // Alice: 4+1+6+2+4+4+1+6+4+4+4+1+6+4+4+1 = 56; Bob: 4+6+1+2+4+4+6+1+4+4+4+6+1+4+4+6 = 61.
    const seats = [
      { client: alice, id: a.match_id, moves: ours },
      { client: bob, id: b.match_id, moves: theirs },
    ];
    for (let r = 1; r <= 8; r++) {
      // The seats take turns moving first.
      const [first, second] = r % 2 === 1 ? seats : [seats[1], seats[0]];
      if (first === undefined || second === undefined) throw new Error("two seats");
      const beforeFirst = await transcript(first.client, first.id);
      const beforeSecond = await transcript(second.client, second.id);
      const waiting = await call<Moved>(first.client, "submit_move", {
        match_id: first.id,
        round: r,
        choice: first.moves[r - 1],
      });
      expect(waiting).toMatchObject({
        status: "pending",
        opponent_choice: null,
        next: null,
        finished: false,
      });
      // Nothing of either move beyond the submitter's own label, and no transcript changed.
      expect(JSON.stringify({ ...waiting, your_choice: null })).not.toMatch(LABELS);
      expect(await transcript(first.client, first.id)).toEqual(beforeFirst);
      expect(await transcript(second.client, second.id)).toEqual(beforeSecond);
      const resolved = await call<Moved>(second.client, "submit_move", {
        match_id: second.id,
        round: r,
        choice: second.moves[r - 1],
      });
      expect(resolved).toMatchObject({ status: "decided", opponent_choice: first.moves[r - 1] });
      // The waiting side now learns the outcome by sending the same choice again.
      const again = await call<Moved>(first.client, "submit_move", {
        match_id: first.id,
        round: r,
        choice: first.moves[r - 1],
      });
      expect(again).toMatchObject({
        status: "decided",
        your_choice: first.moves[r - 1],
        opponent_choice: second.moves[r - 1],
        your_points: resolved.opponent_points,
        opponent_points: resolved.your_points,
      });
      expect(again.next?.round).toBe(r + 1);
    }
    // Rounds 9–16 concurrently: both seats submit at once, then both read the outcome.
    for (let r = 9; r <= 16; r++) {
      const results = await Promise.all(
        seats.map((s) =>
          call<Moved>(s.client, "submit_move", { match_id: s.id, round: r, choice: s.moves[r - 1] }),
        ),
      );
      expect(results.map((m) => m.status).sort()).toEqual(["decided", "pending"]);
      for (const m of results) {
        if (m.status === "pending") expect(m.opponent_choice).toBeNull();
      }
      await Promise.all(
        seats.map((s) => call(s.client, "submit_move", { match_id: s.id, round: r, choice: s.moves[r - 1] })),
      );
    }
    const [ta, tb] = await Promise.all([transcript(alice, a.match_id), transcript(bob, b.match_id)]);
    expect(ta).toMatchObject({ status: "finished", rounds_played: 16, total_points: 56 });
    expect(tb).toMatchObject({ status: "finished", rounds_played: 16, total_points: 61 });
    const metrics = await call<{ matches: { player: string; total_points: number; opponent: string }[] }>(
      alice,
      "repeated_metrics",
      { opponents: ["agent"] },
    );
    expect(metrics.matches.map((m) => [m.player, m.total_points])).toEqual([
      ["alice@1.0.0", 56],
      ["bob@1.0.0", 61],
    ]);
  });

  it("forfeits the round of a seat that keeps the other waiting, on submit and on read (self-play)", async () => {
    const a = await call<View>(alice, "start_match", {
      game: "repeated-pd",
      framing: "repeated-plain+familiar",
      opponent: "agent",
      player: "same-model",
      forfeit_after_seconds: 1,
      seed: 4,
    });
    // The same player takes the other seat, from the same connection.
    const b = await call<View>(alice, "join_match", { match_id: a.match_id, player: "same-model" });
    await call(alice, "submit_move", { match_id: a.match_id, round: 1, choice: C });
    await call(alice, "submit_move", { match_id: b.match_id, round: 1, choice: D });
    expect((await transcript(alice, a.match_id)).total_points).toBe(1); // (C, D) = 1

    // Round 2: seat A moves, seat B stays silent past the limit; A's resubmission settles the forfeit.
    await call(alice, "submit_move", { match_id: a.match_id, round: 2, choice: C });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const settled = await call<Moved>(alice, "submit_move", { match_id: a.match_id, round: 2, choice: C });
    expect(settled).toMatchObject({
      status: "decided",
      your_choice: C,
      opponent_choice: null,
      your_points: 0,
    });
    expect(settled.outcome).toMatch(/did not answer in time/);
    // B's late answer cannot change the round; it learns of the forfeit and gets round 3.
    const late = await call<Moved>(alice, "submit_move", { match_id: b.match_id, round: 2, choice: D });
    expect(late).toMatchObject({ status: "forfeit", your_choice: null, your_points: 0, opponent_points: 0 });
    expect(late.next?.round).toBe(3);
    expect(deps.store.getDecision(b.match_id, 2)).toMatchObject({
      status: "forfeit",
      action: null,
      payoff: 0,
    });

    // Round 3: B moves, A stays silent; A's get_match (a read) settles it: A forfeits.
    await call(alice, "submit_move", { match_id: b.match_id, round: 3, choice: D });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const read = (await transcript(alice, a.match_id)) as {
      rounds: { status: string }[];
      total_points: number;
    };
    expect(read.rounds.map((r) => r.status)).toEqual(["decided", "decided", "forfeit"]);
    // Totals: A = 1 + 0 + 0, B = 6 + 0 + 0 (forfeits score 0 for both, SPEC §6).
    expect(read.total_points).toBe(1);
    expect((await transcript(alice, b.match_id)).total_points).toBe(6);
    expect(deps.store.getMatch(a.match_id)?.player).toBe("same-model");
    expect(deps.store.getMatch(b.match_id)?.player).toBe("same-model");
  });

  it("refuses to join a match that is not played against an agent, and forfeit limits elsewhere", async () => {
    const solo = await call<View>(alice, "start_match", { game: "repeated-pd", opponent: "tit-for-tat" });
    expect(await callError(bob, "join_match", { match_id: solo.match_id })).toMatch(
      /was not started for another player to join; only a match started with opponent "agent" can be joined/,
    );
    expect(await callError(bob, "join_match", { match_id: "nope" })).toMatch(
      /No match with id "nope" to join/,
    );
    expect(
      await callError(alice, "start_match", {
        game: "repeated-pd",
        opponent: "random",
        forfeit_after_seconds: 5,
      }),
    ).toMatch(/forfeit_after_seconds applies only to opponent "agent", not to "random"/);
  });
});

// A joiner that answers on the match id it was invited with (the first seat's) instead of its own seat's
// used to move for the other player: the move was recorded as the first seat's, and the first seat's own
// answer was then refused as "already answered".
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
