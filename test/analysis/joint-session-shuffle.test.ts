// A player's sessions that decided in one framing only, in several of its games: the permutation null
// moves each such session to another framing in every game at once, so the player's mean statistic
// carries the tie the session puts between its games.
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { permutationFill } from "../../src/analysis/invariance/invariance-permutation.js";
import { jointShuffleOf } from "../../src/analysis/invariance/joint-session-shuffle.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import { planRobustness } from "../../src/analysis/robustness/robustness-plan.js";
import { createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";

// Four sessions of two decisions in each of two games: s1 (cooperated twice) and s2 (once) were shown
// framing a, s3 and s4 (never) framing b, the same in both games. Framing a holds 2 of the 4 sessions:
// C(4, 2) = 6 equally likely choices give a's cooperations 3 (s1 + s2: 1/6), 2 (s1 + s3 or s4: 2/6),
// 1 (s2 + s3 or s4: 2/6) or 0 (s3 + s4: 1/6).
const SESSIONS = [
  { id: "s1", framing: "a", cooperate: 2 },
  { id: "s2", framing: "a", cooperate: 1 },
  { id: "s3", framing: "b", cooperate: 0 },
  { id: "s4", framing: "b", cooperate: 0 },
];

function cells(): CountCell[] {
  return ["g0", "g1"].flatMap((game) =>
    ["a", "b"].map((framing): CountCell => {
      const mine = SESSIONS.filter((s) => s.framing === framing);
      const counts = (c: number): Record<string, number> =>
        Object.fromEntries(
          [
            ["cooperate", c],
            ["defect", 2 * mine.length - c],
          ].filter(([, x]) => (x as number) > 0),
        );
      const cooperate = mine.reduce((s, x) => s + x.cooperate, 0);
      return {
        player: "m",
        game,
        framing,
        counts: counts(cooperate),
        clusters: mine.map((s) =>
          Object.fromEntries(
            [
              ["cooperate", s.cooperate],
              ["defect", 2 - s.cooperate],
            ].filter(([, x]) => (x as number) > 0),
          ),
        ),
        cluster_ids: mine.map((s) => s.id),
      };
    }),
  );
}

const OPTIONS = {
  cooperativeAction: { g0: "cooperate", g1: "cooperate" },
  actions: { g0: ["cooperate", "defect"], g1: ["cooperate", "defect"] },
};

describe("the joint shuffle of a player's one-framing sessions across its games", () => {
  it("moves every session to the same framing in both games, with the chances counted by hand", () => {
    const plan = planRobustness(cells(), undefined, OPTIONS.cooperativeAction, OPTIONS.actions);
    const fill = permutationFill(plan, createBootstrapRng("joint"));
    const B = 12_000;
    // Cells in plan order: g0 a, g0 b, g1 a, g1 b.
    const drawn = plan.cells.map(() => new Int32Array(2 * B));
    plan.cells.forEach((_, c) => {
      fill(c, B, drawn[c] as Int32Array);
    });
    const cooperationsA = (c: number): number[] =>
      Array.from({ length: B }, (_, r) => (drawn[c] as Int32Array)[2 * r] as number);
    const g0 = cooperationsA(0);
    const g1 = cooperationsA(2);
    expect(g0.filter((x, r) => x !== g1[r]).length).toBe(0);
    const chances = { 3: 1 / 6, 2: 2 / 6, 1: 2 / 6, 0: 1 / 6 };
    for (const [x, p] of Object.entries(chances)) {
      const share = g0.filter((v) => v === Number(x)).length / B;
      expect(Math.abs(share - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / B));
    }
  });

  it("gives the player the p-value of one shuffle (1/3), not of two independent ones (1/9)", () => {
    // Observed: a 3 of 4 against b 0 of 4 in each game, as far apart as a record of these sessions gets;
    // only its mirror (a 0 of 4, b 3 of 4) is as extreme: p = 1/6 + 1/6 = 1/3 for each game, and for the
    // player's mean too, since both games move together. Shuffled independently, both games would need
    // to be extreme at once: 1/9.
    const B = 20_000;
    const result = robustnessAnalysis(cells(), { ...OPTIONS, bootstrap: B, seed: 5 });
    const tolerance = 4 * Math.sqrt(((1 / 3) * (2 / 3)) / B);
    for (const game of result.games)
      expect(Math.abs(game.invariance.p_value - 1 / 3)).toBeLessThan(tolerance);
    expect(Math.abs((result.players[0]?.invariance.p_value as number) - 1 / 3)).toBeLessThan(tolerance);
  });
});

describe("the sessions the joint shuffle moves", () => {
  // Player m in games g0, g1 and framings a, b; every listing one cooperation. s1 decided in framing a of
  // both games (moved); s2 in a and b of g0 (spans framings); s3 in a of g0 only (one game); s4 in b of
  // both games but listed for 2 sessions (weighted); s5 in b of both games (moved).
  const listings: Record<string, [string, number][]> = {
    "g0 a": [
      ["s1", 1],
      ["s2", 1],
      ["s3", 1],
    ],
    "g0 b": [
      ["s2", 1],
      ["s4", 2],
      ["s5", 1],
    ],
    "g1 a": [["s1", 1]],
    "g1 b": [
      ["s4", 2],
      ["s5", 1],
    ],
  };
  const of = (player: string, only: (id: string) => boolean): CountCell[] =>
    Object.entries(listings).map(([key, all]) => {
      const [game, framing] = key.split(" ") as [string, string];
      const mine = all.filter(([id]) => only(id));
      const n = mine.reduce((s, [, w]) => s + w, 0);
      return {
        player,
        game,
        framing,
        counts: { cooperate: n, defect: 1 },
        clusters: [...mine.map(() => ({ cooperate: 1 })), { defect: 1 }],
        cluster_ids: [...mine.map(([id]) => id), `${key} alone`],
        cluster_weights: [...mine.map(([, w]) => w), 1],
      };
    });

  it("are those of one framing, in two or more games, each listed once (weight 1)", () => {
    const plan = planRobustness(
      of("m", () => true),
      undefined,
      OPTIONS.cooperativeAction,
      OPTIONS.actions,
    );
    expect([...(jointShuffleOf(plan, 0, "x")?.ids ?? [])].sort()).toEqual(["s1", "s5"]);
  });

  it("are none, and there is no joint shuffle, for a player without such sessions", () => {
    const plan = planRobustness(
      of("m", (id) => id === "s2" || id === "s3" || id === "s4"),
      undefined,
      OPTIONS.cooperativeAction,
      OPTIONS.actions,
    );
    expect(jointShuffleOf(plan, 0, "x")).toBeNull();
  });
});
