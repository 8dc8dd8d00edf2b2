import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DecisionContext, ReferenceAgent } from "../../src/agents/agent.js";
import { mutualBestLabel, readOwnPayoffs } from "../../src/agents/prompt-reading.js";
import { storySwayed } from "../../src/agents/story-swayed.js";
import { createRng } from "../../src/domain/rng.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { call, connectClient, tempDeps } from "../support/harness.js";

// A study crossing business and friend-sharing with story-true and familiar labels
// runs end to end, and the analysis separates the story effect from the label effect. Two scripted
// players with known behaviour play it over MCP; `same-game analyze story-labels` must tell them apart.

/** Moved by the words only: cooperates with probability 0.9 when the textbook word is on offer, else 0.1. */
const labelSwayed: ReferenceAgent = {
  name: "label-swayed",
  description: "cooperates when an action is called Cooperate",
  choose(context, rng) {
    const cooperative = mutualBestLabel(readOwnPayoffs(context.prompt, context.labels), context.labels);
    const p = context.labels.includes("Cooperate") ? 0.9 : 0.1;
    if (rng() < p) return cooperative;
    return context.labels.find((label) => label !== cooperative) as string;
  },
};

interface Trial {
  complete: boolean;
  trial: { match_id: string; prompt: string; labels: string[] } | null;
}

interface Unit {
  player: string;
  game: string;
  focal_action: string;
  cells: { story: string; labels: string; framing: string; n: number; p_focal: number }[];
  story_effects: { main: { estimate: number; ci: [number, number] } }[];
  label_effects: { main: { estimate: number; ci: [number, number] } }[];
  verdict: string;
}

let deps: ReturnType<typeof tempDeps>;
let studyId: string;
const TRIALS_PER_CELL = 40;

async function playStudy(client: Client, agent: ReferenceAgent): Promise<void> {
  const rng = createRng(`agent:${agent.name}`);
  for (;;) {
    const next = await call<Trial>(client, "next_trial", { study_id: studyId });
    if (next.complete || next.trial === null) return;
    const context: DecisionContext = {
      prompt: next.trial.prompt,
      labels: next.trial.labels,
      round: 1,
      rounds: 1,
      previousOutcome: null,
    };
    await call(client, "submit_move", {
      match_id: next.trial.match_id,
      round: 1,
      choice: agent.choose(context, rng),
    });
  }
}

beforeAll(async () => {
  requireBuiltCli();
  deps = tempDeps();
  const clients = await Promise.all(
    [labelSwayed, storySwayed].map((agent) => connectClient(deps, { player: agent.name })),
  );
  const study = await call<{ study_id: string; cells: number; trials_per_player: number }>(
    clients[0] as Client,
    "register_study",
    {
      name: "story × labels",
      games: ["prisoners-dilemma"],
      framings: ["business", "friend-sharing"],
      labels: ["story-true", "familiar"],
      trials_per_cell: TRIALS_PER_CELL,
      seed: 13,
    },
  );
  expect(study).toMatchObject({ cells: 4, trials_per_player: 4 * TRIALS_PER_CELL });
  studyId = study.study_id;
  await playStudy(clients[0] as Client, labelSwayed);
  await playStudy(clients[1] as Client, storySwayed);
  await Promise.all(clients.map((client) => client.close()));
}, 120_000);

afterAll(() => deps.dispose());

describe("a story × labels study, end to end", () => {
  it("shows each story with its own words and with the textbook words", () => {
    const matches = deps.store.listMatches({ study_id: studyId });
    expect(matches).toHaveLength(2 * 4 * TRIALS_PER_CELL);
    expect(new Set(matches.map((m) => m.framing))).toEqual(
      new Set(["business", "business+familiar", "friend-sharing", "friend-sharing+familiar"]),
    );
  });

  it("says the words moved the label-swayed player and the story moved the story-swayed one", () => {
    const run = runCli([
      "analyze",
      "story-labels",
      "--db",
      deps.dbPath,
      "--study",
      studyId,
      "--bootstrap",
      "2000",
      "--json",
    ]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as { stories: string[]; labels: string[]; units: Unit[] };
    expect(report.stories).toEqual(["business", "friend-sharing"]);
    expect(report.labels).toEqual(["story-true", "familiar"]);
    const unit = (player: string) => report.units.find((u) => u.player === player) as Unit;

    const words = unit("label-swayed");
    expect(words.focal_action).toBe("cooperate");
    expect(words.cells.map((c) => c.n)).toEqual([40, 40, 40, 40]);
    // True effects: labels 0.9 − 0.1 = +0.8, story 0.
    const [labelEffect] = words.label_effects;
    const [storyEffect] = words.story_effects;
    expect(labelEffect?.main.estimate).toBeGreaterThan(0.65);
    expect(labelEffect?.main.ci[0]).toBeGreaterThan(0);
    expect(storyEffect?.main.ci[0]).toBeLessThan(0);
    expect(storyEffect?.main.ci[1]).toBeGreaterThan(0);
    expect(words.verdict).toBe("labels");

    // story-swayed: P(C) = 1/(1 + e^(1.2)) = 0.23 under business (firm, profit), 0.77 with friends
    // (friend, together), whatever the words: story +0.54, labels 0.
    const story = unit("story-swayed");
    expect(story.story_effects[0]?.main.estimate).toBeGreaterThan(0.35);
    expect(story.story_effects[0]?.main.ci[0]).toBeGreaterThan(0);
    expect(story.label_effects[0]?.main.ci[0]).toBeLessThan(0);
    expect(story.label_effects[0]?.main.ci[1]).toBeGreaterThan(0);
    expect(story.verdict).toBe("story");
  });
});
