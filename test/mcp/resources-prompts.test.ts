import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, connectClient, tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
let client: Client;

beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { player: "host-user" });
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

function text(contents: { text?: string; blob?: string }[]): string {
  return contents.map((c) => c.text ?? "").join("");
}

describe("resources, the play prompt and completions", () => {
  it("serves games and framings, with completions for their ids", async () => {
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain("same-game://games/stag-hunt");
    const game = JSON.parse(
      text((await client.readResource({ uri: "same-game://games/stag-hunt" })).contents as never),
    ) as {
      variants: { base: { payoffs: Record<string, Record<string, number>> } };
    };
    expect(game.variants.base.payoffs).toEqual({
      cooperate: { cooperate: 10, defect: 2 },
      defect: { cooperate: 5, defect: 3 },
    });
    const framing = JSON.parse(
      text((await client.readResource({ uri: "same-game://framings/relabeled" })).contents as never),
    ) as {
      labels: Record<string, string>;
    };
    expect(framing.labels).toEqual({ cooperate: "J", defect: "F" });
    await expect(client.readResource({ uri: "same-game://games/chess" })).rejects.toThrow(
      /Unknown game "chess"/,
    );
    const completion = await client.complete({
      ref: { type: "ref/resource", uri: "same-game://framings/{id}" },
      argument: { name: "id", value: "rps" },
    });
    expect(completion.completion.values.sort()).toEqual([
      "rps-plain",
      "rps-plain+familiar",
      "rps-plain+neutral",
      "rps-swapped",
    ]);
  });

  it("starts a blind match from the play prompt and exposes its full record as a resource", async () => {
    const prompt = await client.getPrompt({
      name: "play",
      arguments: { game: "harmony", framing: "diplomatic+familiar" },
    });
    const message = (prompt.messages[0] as { content: { text: string } }).content.text;
    expect(message).not.toMatch(/harmony|diplomatic/i);
    const matchId = /match_id "([0-9a-f]{32})"/.exec(message)?.[1] as string;
    await call(client, "submit_move", { match_id: matchId, round: 1, choice: "Cooperate" });
    const record = JSON.parse(
      text((await client.readResource({ uri: `same-game://matches/${matchId}` })).contents as never),
    ) as {
      match: { game: string; framing: string; player: string };
      rounds: { action: string; attempts: { raw_text: string }[] }[];
    };
    expect(record.match).toMatchObject({
      game: "harmony",
      framing: "diplomatic+familiar",
      player: "host-user",
    });
    expect(record.rounds[0]).toMatchObject({ action: "cooperate", attempts: [{ raw_text: "Cooperate" }] });
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "play" },
      argument: { name: "game", value: "s" },
    });
    expect(completion.completion.values.sort()).toEqual(["snowdrift", "stag-hunt"]);
  });
});
