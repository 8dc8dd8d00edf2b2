import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { RoundView as View } from "../../src/play/match-view.js";
import type { MoveResult as Moved } from "../../src/play/submit-move.js";
import { Store } from "../../src/store/store.js";
import { call, connectClient, tempDeps } from "../support/harness.js";
import { describeOnPostgres } from "../support/postgres.js";

// Two seats of an agent match are often served by two replicas of one PostgreSQL record, and replicas'
// clocks disagree. The forfeit of a silent seat used to be judged by the serving replica's wall clock
// against the waiting move's time, written by the other replica's: a replica 6 minutes ahead forfeited the
// silent seat (the default limit, 300 s) the moment its client looked, and wrote the round's time 6 minutes
// into the future. Both are now the record's clock, PostgreSQL's.

describeOnPostgres("an agent match across replicas whose clocks disagree", () => {
  let deps: ReturnType<typeof tempDeps>;
  let secondReplica: Store;
  let alice: Client;
  let bob: Client;
  beforeEach(async () => {
    deps = tempDeps("postgres");
    secondReplica = new Store(deps.dbPath);
    alice = await connectClient(deps, { clientName: "alice" });
    bob = await connectClient({ ...deps, store: secondReplica }, { clientName: "bob" });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await alice.close();
    await bob.close();
    secondReplica.close();
    deps.dispose();
  });

  it("a seat served by a replica 6 minutes ahead is not forfeited while the other waits 1 s, and its round is timed by the record", async () => {
    const a = await call<View>(alice, "start_match", {
      game: "repeated-pd",
      framing: "repeated-plain+familiar",
      opponent: "agent",
      seed: 5,
    });
    const b = await call<View>(bob, "join_match", { match_id: a.match_id });
    await call(alice, "submit_move", { match_id: a.match_id, round: 1, choice: "Cooperate" });

    // The clock under test: from here on this process's wall clock reads 6 minutes ahead (Date only; the
    // monotonic clock and the database's are as they were), as Bob's replica's would.
    const realNow = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: realNow + 6 * 60_000 });

    const read = (await call(bob, "get_match", { match_id: b.match_id })) as { rounds: { status: string }[] };
    expect(read.rounds.map((r) => r.status)).toEqual([]);
    const moved = await call<Moved>(bob, "submit_move", { match_id: b.match_id, round: 1, choice: "Defect" });
    // (C, D): Alice 1, Bob 6, as played: no forfeit.
    expect(moved).toMatchObject({ status: "decided", your_choice: "Defect", opponent_choice: "Cooperate" });
    expect(moved.your_points).toBe(6);
    const decidedAt = Date.parse(secondReplica.getDecision(b.match_id, 1)?.decided_at ?? "");
    // Written on the database's clock (this machine's real one), not 6 minutes ahead: within a few seconds.
    expect(Math.abs(decidedAt - realNow)).toBeLessThan(10_000);
  }, 30_000);
});
