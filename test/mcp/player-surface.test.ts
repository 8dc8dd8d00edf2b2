import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blindGameId } from "../../src/play/blind-games.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

// The player's surface, as the agent under evaluation reads it: everything a host shows it or hands it
// back — the server instructions, tools/list (names, titles, descriptions, every parameter description),
// prompts and their messages, completions, resources and templates, and every result of every play tool
// (errors included) — must say nothing about what is studied. The stimulus itself (the rendered prompt)
// is the measured material; the study uses framings with neutral labels (X/Y, J/F, Rock/Paper/Scissors)
// so even it can be held against the list verbatim.

let deps: ReturnType<typeof tempDeps>;
let operator: Client;
let player: Client;
let partner: Client;
let studyId: string;

const BANNED_WORDS = [
  "framing",
  "story",
  "robust",
  "counterfactual",
  "equilibri",
  "cooperat",
  "defect",
  "experiment",
  "bias",
  "benchmark",
];

/** The study's words: the list of the issue, and every game id and title of the catalog. */
function bannedTerms(): string[] {
  const games = deps.catalog.games.flatMap((g) => [g.id, g.title]);
  return [...BANNED_WORDS, ...games].map((t) => t.toLowerCase());
}

function findBanned(text: string): string[] {
  const lower = text.toLowerCase();
  return bannedTerms().filter((term) => lower.includes(term));
}

type View = { match_id: string; round: number; labels: string[] };

/** Everything the player's client can see, each piece labelled with where it came from. */
async function playerSurface(): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {};
  seen.instructions = player.getInstructions();
  seen.tools = (await player.listTools()).tools;
  seen.prompts = (await player.listPrompts()).prompts;
  seen.resources = await player.listResources().then(
    (r) => r.resources,
    (error: Error) => `no resources: ${error.message}`,
  );
  seen.templates = await player.listResourceTemplates().then(
    (r) => r.resourceTemplates,
    (error: Error) => `no templates: ${error.message}`,
  );
  seen.prompt_with_study = await player.getPrompt({ name: "play", arguments: { study_id: studyId } });
  seen.prompt_without_study = await player.getPrompt({ name: "play", arguments: {} });
  seen.study_completion = await player.complete({
    ref: { type: "ref/prompt", name: "play" },
    argument: { name: "study_id", value: "" },
  });
  const results: unknown[] = [];
  const record = async (name: string, args: Record<string, unknown>, client = player) => {
    const result = await client.callTool({ name, arguments: args });
    results.push({ name, args, result });
    return result.structuredContent as Record<string, unknown>;
  };
  const games = (await record("list_games", {})).games as { id: string; rounds: number; choices: number }[];
  // A study's trials, start to finish, with a resumed trial and the closing "complete" answer.
  await record("next_trial", { study_id: studyId });
  for (;;) {
    const next = await record("next_trial", { study_id: studyId });
    const trial = next.trial as View | null;
    if (trial === null) break;
    await record("submit_move", { match_id: trial.match_id, round: 1, choice: "maybe" });
    await record("submit_move", { match_id: trial.match_id, round: 1, choice: trial.labels[0] });
    await record("submit_move", { match_id: trial.match_id, round: 1, choice: trial.labels[0] });
    await record("get_match", { match_id: trial.match_id });
  }
  // A match of the agent's own choosing: the three-choice game (one presentation only) to its end.
  const three = games.find((g) => g.choices === 3) as { id: string };
  let view: View | null = (await record("start_match", { game: three.id })) as unknown as View;
  while (view !== null) {
    const outcome = await record("submit_move", {
      match_id: view.match_id,
      round: view.round,
      choice: view.labels[0],
    });
    view = outcome.next as View | null;
  }
  await record("start_match", { game: "no-such-game" });
  await record("get_match", { match_id: "0".repeat(32) });
  // Two seats of one match between agents.
  const first = (await record("start_match", { game: three.id, opponent: "agent" })) as unknown as View;
  const second = (await record("join_match", { match_id: first.match_id }, partner)) as unknown as View;
  await record("submit_move", { match_id: first.match_id, round: 1, choice: first.labels[0] });
  await record("submit_move", { match_id: second.match_id, round: 1, choice: second.labels[1] }, partner);
  await record("get_match", { match_id: first.match_id });
  seen.results = results;
  return seen;
}

beforeAll(async () => {
  deps = tempDeps();
  operator = await connectClient(deps, { player: "operator" });
  const study = await call<{ study_id: string }>(operator, "register_study", {
    name: "surface study",
    games: ["prisoners-dilemma", "stag-hunt"],
    framings: ["abstract-matrix", "relabeled"],
    trials_per_cell: 1,
    seed: 2,
  });
  studyId = study.study_id;
  player = await connectClient(deps, { player: "agent-under-test", toolsets: ["play"] });
  partner = await connectClient(deps, { player: "second-agent", toolsets: ["play"] });
}, 60_000);
afterAll(async () => {
  await Promise.all([operator.close(), player.close(), partner.close()]);
  deps.dispose();
});

describe("the player's surface (toolset play, the default) names nothing of the study", () => {
  it("exposes the six play tools and the play prompt, no resources", async () => {
    const names = (await player.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual([
      "get_match",
      "join_match",
      "list_games",
      "next_trial",
      "start_match",
      "submit_move",
    ]);
    expect((await player.listPrompts()).prompts.map((p) => p.name)).toEqual(["play"]);
    // The operator's server, for contrast, does name them (so the check below is not vacuous).
    const operatorTools = JSON.stringify((await operator.listTools()).tools);
    expect(findBanned(operatorTools)).toEqual(
      expect.arrayContaining(["framing", "robust", "prisoners-dilemma"]),
    );
  });

  it("holds instructions, listings, prompts, completions and every play result against the banned list", async () => {
    const surface = await playerSurface();
    const hits = Object.entries(surface).flatMap(([where, value]) => {
      const text = JSON.stringify(value);
      return findBanned(text).map(
        (term) =>
          `${where}: "${term}" in …${text.slice(Math.max(0, text.toLowerCase().indexOf(term) - 60), text.toLowerCase().indexOf(term) + 40)}…`,
      );
    });
    expect(hits).toEqual([]);
    // The walk really played: every trial of the study (2 games × 2 presentations) and the three-choice match.
    const results = surface.results as { name: string }[];
    expect(results.filter((r) => r.name === "next_trial")).toHaveLength(6);
    expect(results.length).toBeGreaterThan(30);
  }, 60_000);

  it("never tells a repeated game's number of rounds: list_games gives it for one-round games only", async () => {
    const result = await player.callTool({ name: "list_games", arguments: {} });
    const listed = (result.structuredContent as { games: { id: string; rounds?: number }[] }).games;
    const text = (result.content as { text: string }[]).map((c) => c.text).join("\n");
    const repeated = deps.catalog.games.filter((g) => g.rounds > 1);
    expect(repeated.map((g) => g.id)).toEqual(expect.arrayContaining(["repeated-pd", "rock-paper-scissors"]));
    for (const game of deps.catalog.games) {
      const entry = listed.find((g) => g.id === blindGameId(game.id));
      if (game.rounds === 1) expect(entry?.rounds).toBe(1);
      else expect(entry && "rounds" in entry).toBe(false);
    }
    // repeated-pd lasts 16 rounds and rock-paper-scissors 24: neither number appears beside a handle.
    const pd = blindGameId("repeated-pd");
    expect(text).toContain(`${pd}: several rounds, 2 choices`);
    expect(text).not.toMatch(/\d+ rounds/);
    // Its matches keep it hidden too (the prompt says so; rounds is null).
    const view = await call<{ rounds: number | null; prompt: string }>(player, "start_match", { game: pd });
    expect(view.rounds).toBeNull();
    expect(view.prompt).toContain("you are not told how many");
  });

  it("refuses an unknown study id without advising register_study, a tool the player is not offered", async () => {
    const text = await callError(player, "next_trial", { study_id: "study-000000000000" });
    expect(text).toBe('No study with id "study-000000000000"; check the study id you were given.');
    // The operator, who has register_study, is still told to register one.
    expect(await callError(operator, "next_trial", { study_id: "study-000000000000" })).toBe(
      'No study with id "study-000000000000"; register one with register_study.',
    );
  });

  it("says which game handles exist when a careless agent names an unknown one", async () => {
    const text = await callError(player, "start_match", { game: "prisoners-dilemma-2" });
    expect(text).toMatch(/^Unknown game "prisoners-dilemma-2"; games: game-[0-9a-f]{8}, /);
    expect(findBanned(text.replace('"prisoners-dilemma-2"', ""))).toEqual([]);
  });

  it("refuses an agent opponent for a game whose seats differ in the agent's own terms", async () => {
    // Battle of the sexes pays its two seats differently, so no second agent can take the other side.
    const asymmetric = deps.catalog.games.find(
      (g) => deps.catalog.variant(g.id, "base").columnPayoffs !== null,
    );
    const handle = blindGameId(asymmetric?.id as string);
    const listed = (await call<{ games: { id: string }[] }>(player, "list_games", {})).games;
    expect(listed.map((g) => g.id)).toContain(handle);
    const text = await callError(player, "start_match", { game: handle, opponent: "agent" });
    expect(text).toBe(
      `Game "${handle}" cannot be played with opponent "agent": its two seats have different payoffs, so the other player would see another game. Valid opponents for it: computer.`,
    );
    expect(findBanned(text)).toEqual([]);
  });
});
