import { describe, expect, it } from "vitest";
import { call, callError, connectClient, useConnectedClient } from "../support/harness.js";

// A refused argument is named once, with the value received and what is valid: one bound (the tighter),
// never the integer type's own 2^53 − 1 beside the argument's, and a union said in words.

const held = useConnectedClient();
const prefix = (tool: string) => `Input validation error: Invalid arguments for tool ${tool}: `;

describe("tool argument errors", () => {
  it("gives one bound and the value received for a number far out of range", async () => {
    const match = await call<{ match_id: string }>(held.client, "start_match", { game: "prisoners-dilemma" });
    expect(
      await callError(held.client, "submit_move", { match_id: match.match_id, round: 1e20, choice: "x" }),
    ).toBe(`${prefix("submit_move")}round is 100000000000000000000; it must be an integer from 1 to 10000.`);
    expect(
      await callError(held.client, "start_match", {
        game: "prisoners-dilemma",
        forfeit_after_seconds: 1e308,
      }),
    ).toBe(`${prefix("start_match")}forfeit_after_seconds is 1e+308; it must be an integer from 1 to 86400.`);
  });

  it("says what a seed may be when it is neither an integer nor a non-empty string", async () => {
    expect(await callError(held.client, "start_match", { game: "prisoners-dilemma", seed: 1.5 })).toBe(
      `${prefix("start_match")}seed is 1.5; it must be an integer or a non-empty string of at most 100 characters.`,
    );
  });

  it("names each refused argument once, an item of a list by its index after the list's name", async () => {
    expect(await callError(held.client, "robustness", { framings: ["business", ""], bootstrap: 0 })).toBe(
      `${prefix("robustness")}framings.1 is ""; it must be a non-empty string of at most 200 characters; bootstrap is 0; it must be an integer from 1 to 100000.`,
    );
  });

  it("escapes a NUL in an id it does not know", async () => {
    const text = await callError(held.client, "get_match", { match_id: "ab\u0000c" });
    expect(text).toContain('No match with id "ab\\x00c"');
    expect(text).not.toContain("\u0000");
  });

  it("escapes the control characters of a game or framing start_match does not know", async () => {
    // The operator's surface names the catalog's games; the player's its blind handles.
    const game = await callError(held.client, "start_match", { game: "pd\u0000\u001b[2J" });
    expect(game).toMatch(/^Unknown game "pd\\x00\\x1b\[2J"; valid: battle-of-the-sexes, /);
    const player = await connectClient(held.deps, { toolsets: ["play"] });
    const blind = await callError(player, "start_match", { game: "pd\u0000\u001b[2J" });
    await player.close();
    expect(blind).toMatch(/^Unknown game "pd\\x00\\x1b\[2J"; games: game-[0-9a-f]{8}, /);
    const framing = await callError(held.client, "start_match", {
      game: "prisoners-dilemma",
      framing: "business\u202e\u0007",
    });
    expect(framing).toMatch(/^Framing "business\\u202e\\x07" does not present prisoners-dilemma \(base\); /);
    for (const text of [game, blind, framing]) {
      for (const raw of ["\u0000", "\u0007", "\u001b", "\u202e"]) expect(text).not.toContain(raw);
    }
  });
});
