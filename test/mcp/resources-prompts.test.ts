import { type Client, UriTemplate } from "@modelcontextprotocol/client";
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
    // Study reports are listed and their ids complete; an unknown one is the SDK's resource-not-found.
    const study = await call<{ study_id: string }>(client, "register_study", {
      name: "listed",
      games: ["prisoners-dilemma"],
      framings: ["business", "team"],
      trials_per_cell: 1,
    });
    const reports = (await client.listResources()).resources.map((r) => r.uri);
    expect(reports).toContain(`same-game://studies/${study.study_id}/report`);
    const ids = await client.complete({
      ref: { type: "ref/resource", uri: "same-game://studies/{id}/report" },
      argument: { name: "id", value: "study-" },
    });
    expect(ids.completion.values).toEqual([study.study_id]);
    await expect(client.readResource({ uri: "same-game://studies/study-nope/report" })).rejects.toMatchObject(
      {
        code: -32602,
        message: expect.stringMatching(/No study with id "study-nope"/),
      },
    );
  });

  it("reads a framing whose id holds a +, through the URI the SDK expands from the template and completion", async () => {
    const template = (await client.listResourceTemplates()).resourceTemplates.find(
      (t) => t.name === "framing",
    );
    const uriTemplate = template?.uriTemplate as string;
    const completion = await client.complete({
      ref: { type: "ref/resource", uri: uriTemplate },
      argument: { name: "id", value: "business+" },
    });
    expect(completion.completion.values.sort()).toEqual(["business+familiar", "business+neutral"]);
    // RFC 6570 expansion percent-encodes the reserved "+": the server decodes it before the lookup.
    const uri = new UriTemplate(uriTemplate).expand({ id: "business+familiar" });
    expect(uri).toBe("same-game://framings/business%2Bfamiliar");
    const read = await client.readResource({ uri });
    expect(read.contents[0]?.uri).toBe(uri);
    expect(JSON.parse(text(read.contents as never)).id).toBe("business+familiar");
  });

  it("decodes every template's variable before the lookup, and refuses one that is not valid percent-encoding", async () => {
    const study = await call<{ study_id: string }>(client, "register_study", {
      name: "encoded",
      games: ["prisoners-dilemma"],
      framings: ["business", "team"],
      trials_per_cell: 1,
    });
    const match = await call<{ match_id: string }>(client, "start_match", { game: "stag-hunt" });
    const ids: Record<string, string> = {
      game: "stag-hunt",
      framing: "relabeled+neutral",
      match: match.match_id,
      "study-report": study.study_id,
    };
    const templates = (await client.listResourceTemplates()).resourceTemplates;
    expect(templates.map((t) => t.name).sort()).toEqual(Object.keys(ids).sort());
    // Every character written as %XX (a client may escape more than it must): each reads what it names.
    const escaped = (id: string) =>
      [...id].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`).join("");
    for (const template of templates) {
      const id = ids[template.name] as string;
      const uri = template.uriTemplate.replace("{id}", escaped(id));
      const read = await client.readResource({ uri });
      const body = text(read.contents as never);
      expect(body, template.name).toContain(template.name === "match" ? `"id": "${id}"` : id);
      // "%E0%A4%A" is a cut-off UTF-8 escape: refused as invalid params naming it, not an unknown id.
      const bad = template.uriTemplate.replace("{id}", "%E0%A4%A");
      await expect(client.readResource({ uri: bad }), template.name).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(`{id} "%E0%A4%A" is not valid percent-encoding`),
      });
    }
  });

  it("gets the play prompt without writing, and the agent's first call starts the match", async () => {
    const matches = () =>
      (deps.store.db.prepare("SELECT count(*) AS n FROM matches").get() as { n: number }).n;
    for (let i = 0; i < 3; i++) {
      await client.getPrompt({ name: "play", arguments: { game: "harmony", framing: "diplomatic" } });
    }
    expect(matches()).toBe(0); // three gets, no match: reading a prompt is a read
    const prompt = await client.getPrompt({
      name: "play",
      arguments: { game: "harmony", framing: "diplomatic+familiar" },
    });
    const message = (prompt.messages[0] as { content: { text: string } }).content.text;
    expect(message).toMatch(/^Call start_match with game "harmony", framing "diplomatic\+familiar"\./);
    const view = await call<{ match_id: string }>(client, "start_match", {
      game: "harmony",
      framing: "diplomatic+familiar",
    });
    await call(client, "submit_move", { match_id: view.match_id, round: 1, choice: "Cooperate" });
    const record = JSON.parse(
      text((await client.readResource({ uri: `same-game://matches/${view.match_id}` })).contents as never),
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
    // The operator finds it again: listed, and its id completes from a prefix.
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(`same-game://matches/${view.match_id}`);
    const ids = await client.complete({
      ref: { type: "ref/resource", uri: "same-game://matches/{id}" },
      argument: { name: "id", value: view.match_id.slice(0, 6) },
    });
    expect(ids.completion.values).toEqual([view.match_id]);
    await expect(client.readResource({ uri: "same-game://matches/nope" })).rejects.toThrow(
      /No match with id "nope" for this client/,
    );
  });

  it("completes every prompt argument with a known set of values, and refuses an unknown game as invalid params", async () => {
    const complete = async (name: string, value: string, context?: Record<string, string>) =>
      (
        await client.complete({
          ref: { type: "ref/prompt", name: "play" },
          argument: { name, value },
          ...(context ? { context: { arguments: context } } : {}),
        })
      ).completion.values.sort();
    expect(await complete("game", "s")).toEqual(["snowdrift", "stag-hunt"]);
    expect(await complete("variant", "")).toEqual(["base", "joint", "label", "payoff"]);
    // Only the framings that present the chosen game variant: rps-plain (in its three label sets) the
    // base, rps-swapped (its own labels only) the label one.
    expect(await complete("framing", "", { game: "rock-paper-scissors" })).toEqual([
      "rps-plain",
      "rps-plain+familiar",
      "rps-plain+neutral",
    ]);
    expect(await complete("framing", "", { game: "rock-paper-scissors", variant: "label" })).toEqual([
      "rps-swapped",
    ]);
    expect(await complete("framing", "fri")).toEqual([
      "friend-sharing",
      "friend-sharing+familiar",
      "friend-sharing+neutral",
    ]);
    // Every argument is optional: without any, the agent is told to pick a game itself, as on the player's
    // surface; a framing without a game cannot be checked and is refused.
    const empty = await client.getPrompt({ name: "play", arguments: {} });
    expect((empty.messages[0] as { content: { text: string } }).content.text).toMatch(
      /^Call list_games, then start_match with one of its game ids\. Read each prompt/,
    );
    const none = await client.getPrompt({ name: "play" });
    expect(none.messages).toEqual(empty.messages);
    await expect(
      client.getPrompt({ name: "play", arguments: { framing: "business" } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^A framing goes with a game \(one of .*prisoners-dilemma/),
    });
    await expect(client.getPrompt({ name: "play", arguments: { game: "chess" } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Unknown game "chess"; games: .*prisoners-dilemma/),
    });
    await expect(
      client.getPrompt({ name: "play", arguments: { game: "prisoners-dilemma", framing: "rps-plain" } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/does not present prisoners-dilemma/),
    });
  });

  it("escapes the control characters of a game, variant or framing the prompt does not know", async () => {
    for (const [args, start] of [
      [{ game: "chess\u001b[2J" }, 'Unknown game "chess\\x1b[2J"; games: '],
      [{ game: "harmony", variant: "base\u0000" }, 'Unknown variant "base\\x00"; variants: '],
      [{ game: "harmony", framing: "team\u202e" }, 'Framing "team\\u202e" does not present harmony (base); '],
    ] as const) {
      const refusal = await client.getPrompt({ name: "play", arguments: args }).then(
        () => undefined,
        (error: { code: number; message: string }) => error,
      );
      expect(refusal?.code).toBe(-32602);
      expect(refusal?.message.startsWith(start), refusal?.message).toBe(true);
    }
  });

  it("answers a prompt argument that is not a string with -32602 naming it, not an internal error", async () => {
    await expect(
      client.getPrompt({ name: "play", arguments: { game: 5 } as unknown as Record<string, string> }),
    ).rejects.toMatchObject({
      code: -32602,
      message:
        'Argument "game" of prompt play is 5, not a string; each prompt argument is a string, or left out.',
    });
    await expect(
      client.getPrompt({ name: "play", arguments: ["x"] as unknown as Record<string, string> }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/arguments of prompt play are \["x"\]/),
    });
  });
});
