import { describe, expect, it } from "vitest";
import type { RoundView as View } from "../../src/play/match-view.js";
import { call, useConnectedClient } from "../support/harness.js";

// get_match's text used to show a forfeited round of the player's own as "(void)", the word of a round
// with no valid reply in five tries: an agent reading it was told it had answered badly, not too late.

const held = useConnectedClient();

describe("get_match's text of a forfeited round", () => {
  it("says the seat forfeited, not that its reply was void", async () => {
    const first = await call<View>(held.client, "start_match", {
      game: "repeated-pd",
      framing: "repeated-plain+familiar",
      opponent: "agent",
      forfeit_after_seconds: 1,
      seed: 5,
    });
    const second = await call<View>(held.client, "join_match", { match_id: first.match_id });
    // Seat A cooperates; seat B stays silent past the limit and forfeits round 1 (0 points for both).
    await call(held.client, "submit_move", { match_id: first.match_id, round: 1, choice: "Cooperate" });
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    const silent = await held.client.callTool({
      name: "get_match",
      arguments: { match_id: second.match_id },
    });
    expect((silent.structuredContent as { rounds: { status: string }[] }).rounds[0]?.status).toBe("forfeit");
    expect((silent.content as { text: string }[])[0]?.text).toBe(
      `Match ${second.match_id}: open, waiting for round 2; total 0.\nround 1: you (forfeit: no answer in time), other Cooperate → 0`,
    );
    const waited = await held.client.callTool({ name: "get_match", arguments: { match_id: first.match_id } });
    expect((waited.content as { text: string }[])[0]?.text).toBe(
      `Match ${first.match_id}: open, waiting for round 2; total 0.\nround 1: you Cooperate, other (none) → 0`,
    );
  });
});
