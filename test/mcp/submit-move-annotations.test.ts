import { describe, expect, it } from "vitest";
import { call, callError, useConnectedClient } from "../support/harness.js";

// submit_move declared idempotentHint: true, which MCP reads as "calling it again with the same arguments
// has no further effect". The same unreadable reply sent again is the agent's next invalid reply: it is
// recorded, and the fifth voids the round. A host may retry a call it believes idempotent; this one it may
// not, so the hint is left out (false).

const held = useConnectedClient();

describe("submit_move's behaviour hints", () => {
  it("do not claim idempotence, since a resent unreadable reply counts again", async () => {
    const { tools } = await held.client.listTools();
    expect(tools.find((tool) => tool.name === "submit_move")?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });

    const match = await call<{ match_id: string; labels: string[] }>(held.client, "start_match", {
      game: "prisoners-dilemma",
      seed: 4,
    });
    const same = { match_id: match.match_id, round: 1, choice: "hmm" };
    expect(await callError(held.client, "submit_move", same)).toMatch(/This was invalid reply 1 of 5 /);
    expect(await callError(held.client, "submit_move", same)).toMatch(/This was invalid reply 2 of 5 /);
    expect(held.deps.store.listAttempts(match.match_id, 1).map((a) => a.raw_text)).toEqual(["hmm", "hmm"]);
  });
});
