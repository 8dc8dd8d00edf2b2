import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownPayoff, readOwnPayoffs } from "../../src/agents/prompt-reading.js";
import { loadCatalog } from "../../src/domain/catalog.js";
import { packageRoot } from "../../src/package-root.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { call, connectClient, tempDeps } from "../support/harness.js";

// A study sweeps game structure over members of the shipped Robinson–Goforth family, in play.
// A scripted payoff reader plays it through the SDK client; every decision is recorded, and the analysis
// reports each game on its own. The values are the published tables': game 111 (Prisoner's Dilemma)
// has the one equilibrium (A2, B1), game 322 (Stag Hunt) the two (A1, B2) and (A2, B1), game 366
// (Harmony) the one (A1, B2) — action "first" is A1/B1, "second" A2/B2.

const FAMILY = ["rg-111", "rg-322", "rg-366"];
const FRAMINGS = ["abstract-matrix", "neutral-narrative"];
const TRIALS_PER_CELL = 6;

/**
 * Takes a strictly dominant option when there is one, else the option with the best outcome on offer
 * (in the Stag Hunt: the stag). It reads only the prompt, through the labels shown.
 */
function dominantOrMaximax(prompt: string, labels: readonly string[]): string {
  const table = readOwnPayoffs(prompt, labels);
  const [a, b] = labels as [string, string];
  const dominates = (x: string, y: string) =>
    labels.every((o) => ownPayoff(table, x, o) > ownPayoff(table, y, o));
  if (dominates(a, b)) return a;
  if (dominates(b, a)) return b;
  const best = (x: string) => Math.max(...labels.map((o) => ownPayoff(table, x, o)));
  return best(a) >= best(b) ? a : b;
}

interface Trial {
  complete: boolean;
  trial: { match_id: string; prompt: string; labels: string[] } | null;
}

let deps: ReturnType<typeof tempDeps>;
let studyId: string;
const family = loadCatalog(packageRoot(), join(packageRoot(), "catalogs", "ordinal-2x2"));

beforeAll(async () => {
  requireBuiltCli();
  deps = { ...tempDeps(), catalog: family };
  const client = await connectClient(deps, { player: "payoff-reader" });
  const listed = await call<{ games: { id: string }[] }>(client, "list_games", {});
  expect(listed.games.map((g) => g.id)).toEqual(expect.arrayContaining(FAMILY));
  const study = await call<{ study_id: string; cells: number; trials_per_player: number }>(
    client,
    "register_study",
    {
      name: "Robinson–Goforth sweep",
      games: FAMILY,
      framings: FRAMINGS,
      trials_per_cell: TRIALS_PER_CELL,
      seed: 144,
    },
  );
  expect(study).toMatchObject({ cells: 6, trials_per_player: 6 * TRIALS_PER_CELL });
  studyId = study.study_id;
  for (;;) {
    const next = await call<Trial>(client, "next_trial", { study_id: studyId });
    if (next.complete || next.trial === null) break;
    await call(client, "submit_move", {
      match_id: next.trial.match_id,
      round: 1,
      choice: dominantOrMaximax(next.trial.prompt, next.trial.labels),
    });
  }
  await client.close();
}, 120_000);

afterAll(() => deps.dispose());

describe("a study over members of the ordinal 2×2 family", () => {
  it("records every decision with the payoffs of the published table", () => {
    const matches = deps.store.listMatches({ study_id: studyId });
    expect(matches).toHaveLength(FAMILY.length * FRAMINGS.length * TRIALS_PER_CELL);
    const chosen: Record<string, Set<string>> = {};
    for (const match of matches) {
      const [decision] = deps.store.listDecisions(match.id);
      expect(decision?.status).toBe("decided");
      const action = decision?.action as string;
      const other = decision?.opponent_action as string;
      chosen[match.game] = new Set([...(chosen[match.game] ?? []), action]);
      // The recorded payoffs are the table's ranks for this profile, for both seats.
      const stage = family.stageGame(match.game, "base");
      const i = stage.actions.indexOf(action);
      const j = stage.actions.indexOf(other);
      expect([decision?.payoff, decision?.opponent_payoff]).toEqual([stage.u1[i]?.[j], stage.u2[i]?.[j]]);
    }
    // Prisoner's Dilemma: A2 (second) dominates, 2 > 1 and 4 > 3. Harmony: A1 (first) dominates, 3 > 1
    // and 4 > 2. Stag Hunt: nothing dominates; the best outcome on offer, 4, is at (A1, B2).
    expect(chosen).toEqual({
      "rg-111": new Set(["second"]),
      "rg-322": new Set(["first"]),
      "rg-366": new Set(["first"]),
    });
  });

  it("analyses each game on its own: the same choice under both framings, so R = 1 in every game", () => {
    const run = runCli([
      "analyze",
      "robustness",
      "--db",
      deps.dbPath,
      "--study",
      studyId,
      "--json",
      "--catalog",
      "ordinal-2x2",
    ]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as {
      games: { game: string; player: string; R: { estimate: number } }[];
    };
    const rows = report.games.filter((row) => row.player === "payoff-reader");
    expect(rows.map((row) => row.game).sort()).toEqual(FAMILY);
    for (const row of rows) expect(row.R.estimate).toBe(1);
  });

  it("reports each game's equilibria as the table gives them", () => {
    const equilibria = (game: string) => {
      const run = runCli(["analyze", "equilibria", "--game", game, "--catalog", "ordinal-2x2", "--json"]);
      expect(run.status).toBe(0);
      const out = JSON.parse(run.stdout) as {
        equilibria: { kind: string; row: Record<string, number>; column: Record<string, number> }[];
      };
      return out.equilibria
        .filter((e) => e.kind === "pure")
        .map((e) => `${e.row.first === 1 ? "A1" : "A2"}${e.column.first === 1 ? "B1" : "B2"}`)
        .sort();
    };
    expect(equilibria("rg-111")).toEqual(["A2B1"]);
    // SAME_GAME_CATALOG takes the name too.
    const byEnv = runCli(["analyze", "equilibria", "--game", "rg-144", "--json"], {
      SAME_GAME_CATALOG: "ordinal-2x2",
    });
    expect(byEnv.status).toBe(0);
    expect(equilibria("rg-322")).toEqual(["A1B2", "A2B1"]);
    expect(equilibria("rg-366")).toEqual(["A1B2"]);
  });

  it("refuses a catalog that is neither a folder nor a shipped name, in one line naming both", () => {
    const run = runCli(["analyze", "equilibria", "--game", "rg-111", "--catalog", "ordinal-2x3"]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("ordinal-2x3");
    expect(run.stderr).toContain("shipped: ordinal-2x2");
  });
});
