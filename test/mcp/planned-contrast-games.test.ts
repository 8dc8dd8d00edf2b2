import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connectClient, tempDeps } from "../support/harness.js";

// business → team is planned in snowdrift only: in the prisoner's dilemma the same pair is exploratory.
const design = {
  name: "team planned in snowdrift",
  games: ["prisoners-dilemma", "snowdrift"],
  framings: ["business", "friend-sharing", "team"],
  trials_per_cell: 2,
  seed: 4,
  planned_contrasts: [{ baseline: "business", comparison: "team", games: ["snowdrift"] }],
};

interface Trial {
  complete: boolean;
  trial: { match_id: string; labels: string[] } | null;
}

interface Robustness {
  framings: string[];
  contrast: string;
  notes: { name: string; detail: string }[];
}

let deps: ReturnType<typeof tempDeps>;
let client: Client;
let studyId: string;
beforeAll(async () => {
  deps = tempDeps();
  client = await connectClient(deps);
  ({ study_id: studyId } = await call<{ study_id: string }>(client, "register_study", design));
  // Two players, every trial: 2 games × 3 framings × 2 trials = 12 each.
  for (const player of ["alice", "bob"]) {
    for (;;) {
      const next = await call<Trial>(client, "next_trial", { study_id: studyId, player });
      if (next.complete) break;
      const trial = next.trial as NonNullable<Trial["trial"]>;
      const choice = player === "alice" ? trial.labels[0] : trial.labels[1];
      await call(client, "submit_move", { match_id: trial.match_id, round: 1, choice });
    }
  }
});
afterAll(async () => {
  await client.close();
  deps.dispose();
});

const robustness = (args: Record<string, unknown>) =>
  call<Robustness>(client, "robustness", { study_id: studyId, bootstrap: 50, ...args });

describe("a planned contrast restricted to some games", () => {
  it("is the default pair and planned in its own games", async () => {
    const result = await robustness({ games: ["snowdrift"] });
    expect([result.framings, result.contrast]).toEqual([["business", "team"], "planned"]);
    expect(result.notes.map((n) => n.name)).not.toContain("contrast_planned_elsewhere");
  });

  it("is neither the default nor planned in a game it does not list", async () => {
    const byDefault = await robustness({ games: ["prisoners-dilemma"] });
    // No contrast covers the prisoner's dilemma: every framing played there, sorted.
    expect([byDefault.framings, byDefault.contrast]).toEqual([
      ["business", "friend-sharing", "team"],
      "exploratory",
    ]);
    const named = await robustness({ games: ["prisoners-dilemma"], framings: ["business", "team"] });
    expect(named.contrast).toBe("exploratory");
  });

  it("pooled over its games and others, is exploratory and says where it was planned", async () => {
    const both = await robustness({ framings: ["business", "team"] });
    expect(both.contrast).toBe("exploratory");
    expect(both.notes.find((n) => n.name === "contrast_planned_elsewhere")?.detail).toBe(
      "The planned contrast business → team was registered for snowdrift only; over prisoners-dilemma it is exploratory, and so is this result pooled over prisoners-dilemma, snowdrift (--games snowdrift analyses the planned contrast alone).",
    );
    expect((await robustness({})).framings).toEqual(["business", "friend-sharing", "team"]);
  });

  it("is not compare's default pair in a game it does not list", async () => {
    const compare = (games: string[]) =>
      call<{ framings: string[] }>(client, "compare", { study_id: studyId, games, bootstrap: 50 });
    expect((await compare(["snowdrift"])).framings).toEqual(["business", "team"]);
    expect((await compare(["prisoners-dilemma"])).framings).toEqual(["business", "friend-sharing", "team"]);
  });
});
