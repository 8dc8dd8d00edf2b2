import { describe, expect, it } from "vitest";
import { call, callError, useConnectedClient } from "../support/harness.js";

// A mistyped study id (or game) in an analysis filter is named in an isError result, as robustness,
// compare and report name it — never answered as an empty success or as "no decisions match".

const held = useConnectedClient();

describe("unknown ids in analysis filters", () => {
  it.each([
    ["payoff_sensitivity", { study_id: "nope" }],
    ["equilibrium_deviation", { game: "prisoners-dilemma", study_id: "nope" }],
    ["repeated_metrics", { study_id: "nope" }],
    ["list_matches", { study_id: "nope" }],
  ])("%s names the study id it does not know", async (tool, args) => {
    expect(await callError(held.client, tool, args)).toContain('No study with id "nope"');
  });

  it("list_matches refuses a game or framing neither the catalog nor the record knows, naming the valid ones", async () => {
    const game = await callError(held.client, "list_matches", { game: "ghost" });
    expect(game).toMatch(/^Unknown game "ghost"; games: .*prisoners-dilemma/);
    const framing = await callError(held.client, "list_matches", { framing: "ghost" });
    expect(framing).toMatch(/^Unknown framing "ghost": .*; framings: .*business/);
  });

  it("list_matches names a player it holds no match of", async () => {
    const result = await held.client.callTool({ name: "list_matches", arguments: { player: "ghost" } });
    expect(result.isError).toBeFalsy();
    expect((result.content as { text: string }[])[0]?.text).toBe(
      'No match this connection may open passes these filters: none is of player "ghost".',
    );
  });

  it("payoff_sensitivity and repeated_metrics name a player they hold no decision of", async () => {
    expect(await callError(held.client, "payoff_sensitivity", { players: ["ghost"], bootstrap: 10 })).toBe(
      "No one-shot decisions match players ghost, variant base; play some trials or import counts first.",
    );
    expect(await callError(held.client, "repeated_metrics", { players: ["ghost"] })).toBe(
      "No finished repeated match matches players ghost; play some repeated matches or import transcripts first.",
    );
  });

  it("payoff_sensitivity names a game it does not know, with the games there are", async () => {
    const text = await callError(held.client, "payoff_sensitivity", { games: ["nope"] });
    expect(text).toMatch(/"nope"/);
    expect(text).toContain("prisoners-dilemma");
  });

  it("report, robustness and compare name framings no one-shot decision was made under, with those there are", async () => {
    for (const [framing, action] of [
      ["business", "cooperate"],
      ["friend-sharing", "defect"],
    ] as const) {
      const choice = held.deps.catalog.framing(framing, "prisoners-dilemma").labels[action];
      const view = await call<{ match_id: string }>(held.client, "start_match", {
        game: "prisoners-dilemma",
        framing,
      });
      await call(held.client, "submit_move", { match_id: view.match_id, round: 1, choice });
    }
    // One refusal for every analysis that takes framings.
    for (const tool of ["report", "robustness", "compare"]) {
      expect(await callError(held.client, tool, { framings: ["a", "business"], bootstrap: 20 }), tool).toBe(
        "framings names a, under which nothing matching was played; framings with decisions: business, friend-sharing.",
      );
    }
    const named = await held.client.callTool({
      name: "report",
      arguments: { framings: ["business", "friend-sharing"], bootstrap: 20 },
    });
    expect(named.isError).toBeFalsy();
  });
});
