import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { countsRecord } from "../support/counts-record.js";

// A deterministic agent, or a handful of decisions that all chose one action, must not get an interval of
// a point (certainty from three decisions): story-labels and λ redraw such a cell from its smoothed rate,
// as robustness does.

let dir: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-one-action-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (name: string, rows: string[]) => countsRecord(dir, name, rows);

function analyze<T>(db: string, args: string[]): T {
  const run = runCli(["analyze", ...args, "--json", "--db", db]);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

type Estimate = { estimate: number; ci: [number, number] };

describe("intervals of cells that chose one action", () => {
  it("story-labels: 3 of 3 cooperate under one story, 0 of 3 under the other, is not a certain −100 pp", () => {
    const db = record("story", [
      "S,prisoners-dilemma,business,cooperate,3",
      "S,prisoners-dilemma,friend-sharing,defect,3",
    ]);
    const result = analyze<{ units: { story_effects: { main: Estimate }[] }[] }>(db, [
      "story-labels",
      "--stories",
      "business,friend-sharing",
    ]);
    const main = result.units[0]?.story_effects[0]?.main as Estimate;
    expect(main.estimate).toBe(-1);
    // Redrawn from (3 + ½)/4 and ½/4: a replicate still gives −1 most often, so the interval starts there,
    // but 0 of 3 vs 3 of 3 can come out as close as 1 of 3 vs 2 of 3, and it reaches up.
    expect(main.ci[0]).toBe(-1);
    expect(main.ci[1]).toBeGreaterThan(-0.5);
  });

  it("λ from one decision per framing is not [20, 20]", () => {
    // One defection under friend-sharing in the prisoner's dilemma (Δu < 0: defecting follows the payoffs)
    // fits λ at the cap, 20. Redrawn from ½/2 = .25 cooperation, a quarter of the replicates cooperate and fit
    // λ = 0, so the 95% interval is [0, 20].
    const db = record("lambda", [
      "S,prisoners-dilemma,business,cooperate,1",
      "S,prisoners-dilemma,friend-sharing,defect,1",
    ]);
    const result = analyze<{ pooled: { framing: string; lambda: Estimate }[] }>(db, ["sensitivity"]);
    const friend = result.pooled.find((p) => p.framing === "friend-sharing")?.lambda as Estimate;
    expect(friend.estimate).toBe(20);
    expect(friend.ci).toEqual([0, 20]);
  });
});
