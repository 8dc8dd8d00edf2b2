import { describe, expect, it } from "vitest";
import { compareGroups, NoSharedCells } from "../../src/analysis/comparison/compare-groups.js";
import type { ComparisonRow } from "../../src/analysis/comparison/comparison-rows.js";
import { groupSample } from "../../src/analysis/comparison/group-samples.js";
import { holm } from "../../src/analysis/comparison/pair-differences.js";

const framings = ["business", "friend-sharing"];
const options = {
  framings,
  actionsOf: () => ["cooperate", "defect"],
  cooperativeAction: () => "cooperate",
  bootstrap: 2000,
  seed: 3,
};

/** Imported-style counts (no session): `cooperate` of `n` per framing, in the listed games. */
function counts(
  group: string,
  cooperate: Record<string, number>,
  n = 30,
  games = ["prisoners-dilemma"],
): ComparisonRow[] {
  return games.flatMap((game) =>
    Object.entries(cooperate).flatMap(([framing, c]) => [
      { group, game, framing, action: "cooperate", count: c, unit: null, position: null },
      { group, game, framing, action: "defect", count: n - c, unit: null, position: null },
    ]),
  );
}

/** One decision per schedule position (a runner study): `actions[framing][t]` at trial t of that cell. */
function scheduled(group: string, actions: Record<string, string[]>): ComparisonRow[] {
  return Object.entries(actions).flatMap(([framing, list]) =>
    list.map((action, t) => ({
      group,
      game: "prisoners-dilemma",
      framing,
      action,
      count: 1,
      unit: `${group}:${framing}:${t}`,
      position: `study#${framing}-${t}`,
    })),
  );
}

describe("compare groups", () => {
  it("gives two players with identical counts a difference 0 whose interval holds 0, and one tied group", () => {
    const rows = [
      ...counts("alpha", { business: 20, "friend-sharing": 10 }),
      ...counts("beta", { business: 20, "friend-sharing": 10 }),
    ];
    const result = compareGroups(rows, options);
    const r = result.pairs.find((p) => p.measure === "R");
    expect(r?.difference.estimate).toBe(0);
    expect(r?.difference.ci[0]).toBeLessThan(0);
    expect(r?.difference.ci[1]).toBeGreaterThan(0);
    expect(r?.p_value).toBeGreaterThan(0.5);
    expect(r?.paired).toBe(false);
    expect(r?.cells_used).toEqual([
      { game: "prisoners-dilemma", framing: "business" },
      { game: "prisoners-dilemma", framing: "friend-sharing" },
    ]);
    expect(new Set(result.ranks.map((x) => x.tied_group))).toEqual(new Set([1]));
    expect(result.ranks.map((x) => x.rank.ci)).toEqual([
      [1, 2],
      [1, 2],
    ]);
  });

  it("ranks a player who always plays the dominant action first, with the rank interval [1, 1]", () => {
    // The dominant player defects in every framing (R = 1); the story-swayed ones cooperate with a friend.
    const rows = [
      ...counts("dominant", { business: 0, "friend-sharing": 0 }),
      ...counts("swayed", { business: 3, "friend-sharing": 27 }),
      ...counts("swayed-too", { business: 5, "friend-sharing": 25 }),
    ];
    const result = compareGroups(rows, options);
    const top = result.ranks[0];
    expect(top?.group).toBe("dominant");
    expect(top?.estimate).toBe(1);
    expect(top?.rank).toEqual({ estimate: 1, ci: [1, 1] });
    expect(top?.tied_group).toBe(1);
    expect(result.ranks.filter((x) => x.tied_group === 1).map((x) => x.group)).toEqual(["dominant"]);
    const pair = result.pairs.find((p) => p.measure === "R" && p.a === "dominant" && p.b === "swayed");
    expect(pair?.difference.ci[0]).toBeGreaterThan(0);
    expect(pair?.p_adjusted).toBeLessThan(0.05);
  });

  it("gives two deterministic players (R = 1 on both sides) a finite interval around 0, not a point", () => {
    const rows = [
      ...counts("always-c", { business: 30, "friend-sharing": 30 }),
      ...counts("always-c-too", { business: 30, "friend-sharing": 30 }),
    ];
    const result = compareGroups(rows, options);
    for (const pair of result.pairs) {
      const [lo, hi] = pair.difference.ci;
      expect(Number.isFinite(lo) && Number.isFinite(hi)).toBe(true);
      expect(lo).toBeLessThan(0);
      expect(hi).toBeGreaterThan(0);
    }
    for (const rank of result.ranks) {
      expect(rank.ci[0]).toBeLessThan(rank.ci[1]);
      expect(rank.ci[1]).toBe(1);
    }
  });

  it("pairs two groups that played the same schedule positions, and not groups that did not", () => {
    const a = {
      business: ["defect", "defect", "cooperate", "defect"],
      "friend-sharing": ["cooperate", "cooperate", "defect", "cooperate"],
    };
    const rows = [
      ...scheduled("m1", a),
      ...scheduled("m2", a),
      ...counts("paper", { business: 1, "friend-sharing": 3 }, 4),
    ];
    const result = compareGroups(rows, options);
    const pair = (x: string, y: string) =>
      result.pairs.find((p) => p.measure === "R" && p.a === x && p.b === y);
    expect(pair("m1", "m2")?.paired).toBe(true);
    expect(pair("m1", "paper")?.paired).toBe(false);
    // The same answers at the same positions: every paired replicate of the difference is 0.
    expect(pair("m1", "m2")?.difference).toEqual({ estimate: 0, ci: [0, 0] });
    expect(result.group_details.map((g) => g.unit)).toEqual(["trial", "trial", "decision"]);
  });

  it("refuses two groups that share no game under every framing, naming both", () => {
    const rows = [
      ...counts("alpha", { business: 20, "friend-sharing": 10 }),
      ...counts("beta", { business: 20, "friend-sharing": 10 }, 30, ["stag-hunt"]),
    ];
    expect(() => compareGroups(rows, options)).toThrow(NoSharedCells);
    expect(() => compareGroups(rows, options)).toThrow(
      /'alpha' and 'beta' share no game .*'alpha' played prisoners-dilemma .*'beta' played stag-hunt/,
    );
  });

  it("lists the cells left out of a pair", () => {
    const rows = [
      ...counts("alpha", { business: 20, "friend-sharing": 10 }, 30, ["prisoners-dilemma", "stag-hunt"]),
      ...counts("beta", { business: 20, "friend-sharing": 10 }),
    ];
    const pair = compareGroups(rows, options).pairs[0];
    expect(pair?.cells_left_out).toEqual([
      { game: "stag-hunt", framing: "business" },
      { game: "stag-hunt", framing: "friend-sharing" },
    ]);
  });

  it("adjusts by Holm's step-down rule", () => {
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.5, 0.9])).toEqual([1, 1]);
  });
});

describe("compare groups with sessions", () => {
  /** `sessions` sessions of one group, each making `per` decisions per framing with the given choices. */
  const sessionRows = (group: string, sessions: string[][]): ComparisonRow[] =>
    sessions.flatMap((choices, s) =>
      framings.flatMap((framing, f) =>
        choices.map((action) => ({
          group,
          game: "prisoners-dilemma",
          framing,
          action: f === 0 ? action : action === "cooperate" ? "defect" : "cooperate",
          count: 1,
          unit: `${group}-session-${s}`,
          position: null,
        })),
      ),
    );

  it("resamples a group's sessions when it has several, and its decisions when it has one", () => {
    const many = sessionRows("many", [
      ["cooperate", "cooperate", "defect"],
      ["defect", "defect", "cooperate"],
      ["cooperate", "defect", "defect"],
    ]);
    const one = sessionRows("one", [
      ["cooperate", "cooperate", "defect", "defect", "cooperate", "defect", "defect", "cooperate", "defect"],
    ]);
    const result = compareGroups([...many, ...one], options);
    expect(result.group_details.map((g) => [g.group, g.unit])).toEqual([
      ["many", "session"],
      ["one", "decision"],
    ]);
    // One session drawn whole would repeat its counts in every replicate: its interval would be a point.
    const rank = result.ranks.find((r) => r.group === "one");
    expect(rank?.ci[0]).toBeLessThan(rank?.ci[1] as number);
  });
});

describe("groupSample: an imported cell with sessions for some of its decisions", () => {
  it("draws each decision without a session as a unit of its own, so every decision is drawn", () => {
    const row = (framing: string, action: string, count: number, unit: string | null): ComparisonRow => ({
      group: "m",
      game: "prisoners-dilemma",
      framing,
      action,
      count,
      unit,
      position: null,
    });
    const sample = groupSample(
      "m",
      [
        row("business", "cooperate", 3, "s1"),
        row("business", "defect", 2, "s2"),
        row("business", "defect", 2, null),
        row("business", "cooperate", 1, null),
        // A cell without any session stays drawn by decision.
        row("friend-sharing", "cooperate", 4, null),
      ],
      () => ["cooperate", "defect"],
    );
    expect(sample.unit).toBe("session");
    const business = sample.strata.find((s) => s.kind === "units");
    // Two sessions (3 and 2 decisions) and three one-decision units: 8 decisions, 5 units.
    expect(business?.kind === "units" ? business.units.map((u) => u.map((e) => e.count)) : null).toEqual(
      expect.arrayContaining([[3], [2], [1], [1], [1]]),
    );
    expect(business?.kind === "units" ? business.units.length : 0).toBe(5);
    expect(sample.strata.filter((s) => s.kind !== "units")).toHaveLength(1);
  });
});
