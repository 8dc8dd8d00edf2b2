import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseToolsets } from "../../src/mcp/toolsets.js";
import { callError, connectClient, tempDeps } from "../support/harness.js";

// What could never be played is refused when it is asked for, with the bad value and the valid ones —
// not recorded as a match (or a study) that dies later with an error in front of the agent.

let deps: ReturnType<typeof tempDeps>;
let client: Client;

const count = (table: string) =>
  (deps.store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { player: "operator" });
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

const design = {
  name: "door study",
  games: ["prisoners-dilemma"],
  framings: ["business", "friend-sharing"],
  trials_per_cell: 2,
};

describe("refuse at the door", () => {
  it("start_match refuses opponent params the opponent does not take, and records nothing", async () => {
    const text = await callError(client, "start_match", {
      game: "prisoners-dilemma",
      opponent: "random",
      opponent_params: { p: 5 },
    });
    expect(text).toMatch(/^Invalid params for opponent "random": .*"p".* \(got \{"p":5\}\)\.$/);
    expect(count("matches")).toBe(0);
  });

  it("register_study refuses bad opponent params, contrasts outside the design and unknown framings", async () => {
    expect(
      await callError(client, "register_study", {
        ...design,
        opponents: [{ id: "tit-for-tat", params: { p: 5 } }],
      }),
    ).toMatch(/^Invalid params for opponent "tit-for-tat"/);
    expect(
      await callError(client, "register_study", {
        ...design,
        planned_contrasts: [{ baseline: "business", comparison: "team" }],
      }),
    ).toBe(
      'The planned contrast business → team names the framing "team", which is not in the design; its framings: business, friend-sharing.',
    );
    expect(
      await callError(client, "register_study", {
        ...design,
        planned_contrasts: [{ baseline: "business", comparison: "friend-sharing", games: ["stag-hunt"] }],
      }),
    ).toMatch(/names the game "stag-hunt", which is not in the design; its games: prisoners-dilemma\.$/);
    const unknown = await callError(client, "register_study", {
      ...design,
      framings: ["business", "bussiness"],
    });
    expect(unknown).toMatch(
      /^The framing "bussiness" applies to none of the study's games; framings that do: .*business.*team/,
    );
    expect(count("studies")).toBe(0);
  });

  it("start_match refuses opponent params whose values do not fit the game's actions, and records nothing", async () => {
    // A pattern cycle names actions, never the labels a prompt shows.
    expect(
      await callError(client, "start_match", {
        game: "repeated-pd",
        opponent: "pattern",
        opponent_params: { cycle: ["Cooperate"] },
      }),
    ).toBe('The pattern opponent\'s cycle names "Cooperate", which is not one of cooperate, defect.');
    expect(
      await callError(client, "start_match", {
        game: "rock-paper-scissors",
        opponent: "pattern",
        opponent_params: { cycle: ["rock", "lizard"] },
      }),
    ).toBe('The pattern opponent\'s cycle names "lizard", which is not one of rock, paper, scissors.');
    // 0.3 + 0.6 is 0.8999999999999999 in floating point: the message shows 0.9.
    expect(
      await callError(client, "start_match", {
        game: "repeated-pd",
        opponent: "random",
        opponent_params: { probabilities: { cooperate: 0.3, defect: 0.6 } },
      }),
    ).toBe(
      'The random opponent\'s probabilities {"cooperate":0.3,"defect":0.6} sum to 0.9; they must sum to 1 over cooperate, defect (an action left out has probability 0).',
    );
    expect(
      await callError(client, "start_match", {
        game: "rock-paper-scissors",
        opponent: "random",
        opponent_params: { probabilities: { rock: 0.5, lizard: 0.5 } },
      }),
    ).toBe('The random opponent\'s probabilities names "lizard", which is not one of rock, paper, scissors.');
    expect(
      await callError(client, "start_match", {
        game: "repeated-pd",
        opponent: "random",
        opponent_params: { probabilities: { cooperate: 1.2, defect: -0.2 } },
      }),
    ).toBe(
      "The random opponent's probability of defect is -0.2; each must be between 0 and 1, over cooperate, defect.",
    );
    expect(count("matches")).toBe(0);
    // Within 1e-9 of 1 is a distribution (decimal fractions rarely add up exactly); an action left out is 0.
    const fine = await client.callTool({
      name: "start_match",
      arguments: {
        game: "rock-paper-scissors",
        opponent: "random",
        opponent_params: { probabilities: { rock: 0.1, paper: 0.2, scissors: 0.7 } },
      },
    });
    expect(fine.isError).toBeFalsy();
  });

  it("register_study refuses an opponent whose params do not fit a game; a study stored before the check opens but hands out no dead trial", async () => {
    const badRandom = { id: "random", params: { probabilities: { cooperate: 0.2, defect: 0.2 } } };
    const repeated = {
      name: "bad",
      games: ["repeated-pd"],
      framings: ["repeated-plain"],
      trials_per_cell: 2,
    };
    expect(await callError(client, "register_study", { ...repeated, opponents: [badRandom] })).toBe(
      'repeated-pd: The random opponent\'s probabilities {"cooperate":0.2,"defect":0.2} sum to 0.4; they must sum to 1 over cooperate, defect (an action left out has probability 0).',
    );
    // One design over two games: the cycle fits the dilemma, not rock-paper-scissors, and the message says which.
    expect(
      await callError(client, "register_study", {
        ...repeated,
        games: ["repeated-pd", "rock-paper-scissors"],
        framings: ["repeated-plain", "rps-plain"],
        opponents: [{ id: "pattern", params: { cycle: ["defect"] } }],
      }),
    ).toMatch(
      /^rock-paper-scissors: The pattern opponent's cycle names "defect", which is not one of rock, paper, scissors\.$/,
    );
    expect(count("studies")).toBe(0);

    // A record written before the check may hold such a study: it still opens, next_trial refuses its trials.
    deps.store.insertStudy({
      id: "study-old",
      name: "bad",
      design_json: JSON.stringify({ ...repeated, opponents: [badRandom] }),
      design_hash: "h",
      seed: "1",
      created_at: "2026-01-01T00:00:00.000Z",
      principal: "local",
    });
    expect(await callError(client, "next_trial", { study_id: "study-old" })).toBe(
      "Study study-old cannot be played as registered: an opponent in its design could never make a move. Tell the study's operator, who registers a corrected design.",
    );
    expect(count("matches")).toBe(0);
    const matches = await client.callTool({ name: "list_matches", arguments: { study_id: "study-old" } });
    expect(matches.isError).toBeFalsy();
  });

  it("register_study refuses a game or framing named twice, which would put its cells in the schedule twice", async () => {
    expect(
      await callError(client, "register_study", {
        ...design,
        framings: ["business", "business", "friend-sharing"],
      }),
    ).toBe('framings names "business" twice; list each once.');
    expect(
      await callError(client, "register_study", {
        ...design,
        games: ["prisoners-dilemma", "prisoners-dilemma"],
      }),
    ).toBe('games names "prisoners-dilemma" twice; list each once.');
    expect(count("studies")).toBe(0);
  });

  it("register_study refuses a misspelt design key by name, as its advertised inputSchema says", async () => {
    const topKeys =
      "name, games, variants, framings, labels, styles, opponents, trials_per_cell, seed, planned_contrasts, history_mode, reveal_horizon, adaptive";
    // A top-level key is an argument of the tool, refused before the design is read (tool-call-guard.ts).
    expect(await callError(client, "register_study", { ...design, adaptiv: { rule: "invariance" } })).toBe(
      `register_study has no argument "adaptiv" (did you mean adaptive?); its arguments: ${topKeys}.`,
    );
    expect(
      await callError(client, "register_study", {
        ...design,
        planned_contrasts: [{ baseline: "business", comparision: "friend-sharing" }],
      }),
    ).toMatch(
      /: planned_contrasts\.0: unknown key "comparision" \(did you mean "comparison"\?\); valid keys: baseline, comparison, games; planned_contrasts\.0\.comparison is missing/,
    );
    expect(count("studies")).toBe(0);
    // A client that validates arguments against the advertised schema refuses the same keys the server does.
    const { tools } = await client.listTools();
    const schema = tools.find((tool) => tool.name === "register_study")?.inputSchema as {
      additionalProperties?: unknown;
      properties: Record<
        string,
        { additionalProperties?: unknown; items?: { additionalProperties?: unknown } }
      >;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.adaptive?.additionalProperties).toBe(false);
    expect(schema.properties.opponents?.items?.additionalProperties).toBe(false);
    expect(schema.properties.planned_contrasts?.items?.additionalProperties).toBe(false);
  });

  it("parses --toolsets names and refuses an unknown one with the valid ones", () => {
    expect(parseToolsets("all")).toEqual(["play", "studies", "analysis"]);
    expect(parseToolsets("analysis, play")).toEqual(["play", "analysis"]);
    expect(() => parseToolsets("play,analytics")).toThrow(
      'Unknown toolset "analytics"; toolsets: play, studies, analysis, all (comma-separated).',
    );
    expect(() => parseToolsets(" , ")).toThrow(/needs at least one of/);
  });
});
