import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { repeatedMetrics } from "../../src/queries/repeated-metrics-query.js";
import { call, connectClient, tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

// The report's leaderboard asks only whether the record has repeated play to rank: the store's existence
// test must say yes exactly when repeated_metrics (same filter) has a cell. A one-shot decision is not
// repeated play, and neither is a repeated match still open (its rounds are not read until it finishes).

describeEachEngine("hasRepeatedRounds", (engine) => {
  let deps: ReturnType<typeof tempDeps>;
  let client: Client;
  beforeAll(async () => {
    deps = tempDeps(engine);
    client = await connectClient(deps, { player: "p" });
  });
  afterAll(() => deps.dispose());

  const both = () => [deps.store.hasRepeatedRounds({}), repeatedMetrics(deps, {}).cells.length > 0];

  it("is false on an empty record and after a one-shot decision", async () => {
    expect(both()).toEqual([false, false]);
    const view = await call<{ match_id: string; labels: string[] }>(client, "start_match", {
      game: "prisoners-dilemma",
      framing: "business",
      seed: 1,
    });
    await call(client, "submit_move", { match_id: view.match_id, round: 1, choice: view.labels[0] });
    expect(both()).toEqual([false, false]);
  });

  it("is false while a repeated match is open, true once it has finished", async () => {
    let view: { match_id: string; round: number; labels: string[] } | null = await call(
      client,
      "start_match",
      {
        game: "repeated-pd",
        opponent: "tit-for-tat",
        seed: 7,
      },
    );
    let rounds = 0;
    while (view) {
      const next: { next: typeof view } = await call(client, "submit_move", {
        match_id: view.match_id,
        round: view.round,
        choice: view.labels[0] as string,
      });
      rounds++;
      view = next.next;
      // After the first settled round the match is still open.
      if (rounds === 1) expect(both()).toEqual([false, false]);
    }
    expect(rounds).toBeGreaterThan(1);
    expect(both()).toEqual([true, true]);
    // Another study's filter sees none of it.
    expect(deps.store.hasRepeatedRounds({ study_id: "no-such-study" })).toBe(false);
  });
});
