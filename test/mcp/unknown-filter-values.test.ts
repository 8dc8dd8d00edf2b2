import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { importCommand } from "../../src/cli/import.js";
import { callError, connectClient, tempDeps } from "../support/harness.js";
import { importCounts } from "../support/imported-counts.js";

// Through the SDK client: an analysis tool given a player or game the record does not hold answers with an
// isError result naming it and the valid ones, not with the analysis of what the other names matched. The
// refusal names the tool's argument (`players`), not the CLI's flag (`--players`): a model has no flags.

let deps: ReturnType<typeof tempDeps>;
let client: Client;
beforeAll(async () => {
  deps = tempDeps();
  // Both played the prisoner's dilemma under business and friend-sharing, 30 decisions each.
  await importCounts(deps, { alpha: { business: 20, friend: 10 }, beta: { business: 10, friend: 10 } });
  client = await connectClient(deps);
});
afterAll(async () => {
  await client.close();
  deps.dispose();
});

describe("analysis tools refuse filter values that match nothing", () => {
  it.each([
    ["compare", { bootstrap: 50 }],
    ["robustness", { bootstrap: 50 }],
    ["payoff_sensitivity", { bootstrap: 50 }],
    ["repeated_metrics", {}],
  ])("%s names a player the record does not hold, with its players", async (tool, args) => {
    expect(await callError(client, tool, { ...args, players: ["alpha", "nobody"] })).toBe(
      "players names nobody, who played nothing in the record; players of the record: alpha, beta.",
    );
  });

  it("equilibrium_deviation names its one player the same way", async () => {
    expect(
      await callError(client, "equilibrium_deviation", { game: "prisoners-dilemma", player: "nobody" }),
    ).toBe("player names nobody, who played nothing in the record; players of the record: alpha, beta.");
  });

  it("compare names a catalog game nobody played, with the games played", async () => {
    expect(
      await callError(client, "compare", { bootstrap: 50, games: ["prisoners-dilemma", "stag-hunt"] }),
    ).toBe(
      "games names stag-hunt, not played in the record (variant base); games played: prisoners-dilemma.",
    );
  });
});

describe("a player lacking a framing the others played, over MCP", () => {
  it("compare names the players argument that ranks the others, not the CLI's --players", async () => {
    const short = tempDeps();
    try {
      // alpha and beta played business and friend-sharing; noFriend, business only.
      await importCounts(short, { alpha: { business: 20, friend: 10 }, beta: { business: 10, friend: 10 } });
      const file = join(short.dir, "no-friend.csv");
      writeFileSync(
        file,
        "player,game,framing,action,count\nnoFriend,prisoners-dilemma,business,cooperate,20\n",
      );
      await importCommand.run(parseCommandArgs(importCommand, ["counts", file, "--db", short.dbPath]));
      const shortClient = await connectClient(short);
      try {
        expect(await callError(shortClient, "compare", { bootstrap: 50 })).toBe(
          'compare needs at least two distinct framings every group played; of business, friend-sharing, noFriend played only business (framings with decisions: business, friend-sharing); players ["alpha","beta"] compares the others, who played them all.',
        );
      } finally {
        await shortClient.close();
      }
    } finally {
      short.dispose();
    }
  });
});
