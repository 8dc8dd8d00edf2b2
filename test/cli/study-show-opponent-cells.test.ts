import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { call, connectClient, tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
let client: Client;
beforeAll(requireBuiltCli);
beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { player: "alice" });
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

// Two opponents with one id: random at even odds and random cooperating 9 times in 10.
const NINE_IN_TEN = { probabilities: { cooperate: 0.9, defect: 0.1 } };
const design = {
  name: "two randoms",
  games: ["prisoners-dilemma"],
  framings: ["business", "friend-sharing"],
  opponents: [{ id: "random" }, { id: "random", params: NINE_IN_TEN }],
  trials_per_cell: 1,
  seed: 3,
};

interface Trial {
  complete: boolean;
  trial: { match_id: string; labels: string[] } | null;
}

describe("study show: cells that differ only in their opponent's params", () => {
  it("counts each cell's own trials and names the params", async () => {
    const { study_id } = await call<{ study_id: string }>(client, "register_study", design);
    // 2 framings × 2 opponents = 4 cells, one trial each: alice plays all 4.
    for (;;) {
      const next = await call<Trial>(client, "next_trial", { study_id, player: "alice" });
      if (next.complete) break;
      const trial = next.trial as NonNullable<Trial["trial"]>;
      await call(client, "submit_move", { match_id: trial.match_id, round: 1, choice: trial.labels[0] });
    }

    const text = runCli(["study", "show", study_id, "--db", deps.dbPath]);
    expect(text.status, text.stderr).toBe(0);
    const cellLines = text.stdout
      .split("cells:\n")[1]
      ?.split("\n")
      .filter((line) => line !== "")
      .map((line) => line.trim());
    expect(cellLines).toEqual([
      "prisoners-dilemma base business zero-shot random: alice 1/1",
      'prisoners-dilemma base business zero-shot random {"probabilities":{"cooperate":0.9,"defect":0.1}}: alice 1/1',
      "prisoners-dilemma base friend-sharing zero-shot random: alice 1/1",
      'prisoners-dilemma base friend-sharing zero-shot random {"probabilities":{"cooperate":0.9,"defect":0.1}}: alice 1/1',
    ]);

    const json = JSON.parse(runCli(["study", "show", study_id, "--db", deps.dbPath, "--json"]).stdout);
    expect(
      json.cells.map((c: { framing: string; opponent_params: unknown; finished: unknown }) => [
        c.framing,
        c.opponent_params,
        c.finished,
      ]),
    ).toEqual([
      ["business", {}, { alice: 1 }],
      ["business", NINE_IN_TEN, { alice: 1 }],
      ["friend-sharing", {}, { alice: 1 }],
      ["friend-sharing", NINE_IN_TEN, { alice: 1 }],
    ]);
    expect(json.players).toEqual([{ player: "alice", finished: 4, open: 0, void: 0, forfeit: 0 }]);
  });
});
