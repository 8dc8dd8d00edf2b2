import { describe, expect, it } from "vitest";
import { call, useConnectedClient } from "../support/harness.js";

// list_matches' text goes to an operator's screen: a player label is the client's text, so its control
// characters are escaped there (the structured result keeps it verbatim).

const held = useConnectedClient();

describe("list_matches text", () => {
  it("escapes a player label's escape codes and line breaks, so it cannot forge a line", async () => {
    const player = "evil\u001b[2J\nforged | line";
    const started = await call<{ match_id: string }>(held.client, "start_match", {
      game: "prisoners-dilemma",
      framing: "business",
      player,
    });
    const result = await held.client.callTool({ name: "list_matches", arguments: {} });
    const text = (result.content as { text: string }[])[0]?.text ?? "";
    expect(text.split("\n")).toHaveLength(2);
    expect(text.split("\n")[1]).toMatch(
      new RegExp(
        `^${started.match_id} \\| evil\\\\x1b\\[2J\\\\x0aforged \\| line \\| prisoners-dilemma/base \\| business \\|`,
      ),
    );
    expect((result.structuredContent as { matches: { player: string }[] }).matches[0]?.player).toBe(player);
  });
});
