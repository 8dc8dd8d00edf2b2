// A cell whose decisions all came from one MCP session (a host that played the whole study over one
// connection) has no spread between sessions to resample: redrawing its one session whole repeats its
// rate in every replicate, and the shift interval was a point (−0.5 [−0.5, −0.5] from 20 decisions).
// Such a cell is drawn by decision, exactly as the same counts without sessions, and a note says so.
import { describe, expect, it } from "vitest";
import { compareGroups } from "../../src/analysis/comparison/compare-groups.js";
import type { ComparisonRow } from "../../src/analysis/comparison/comparison-rows.js";
import { groupSample } from "../../src/analysis/comparison/group-samples.js";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";

const GAMES = ["prisoners-dilemma", "stag-hunt"];
const options = {
  cooperativeAction: { "prisoners-dilemma": "cooperate", "stag-hunt": "cooperate" },
  actions: { "prisoners-dilemma": ["cooperate", "defect"], "stag-hunt": ["cooperate", "defect"] },
  bootstrap: 2000,
  seed: 1,
};
/** Cooperations of 10 per (game, framing): the prisoner's dilemma moves 8 → 3, the stag hunt stays at 6. */
const COOPERATE: Record<string, Record<string, number>> = {
  "prisoners-dilemma": { business: 8, "friend-sharing": 3 },
  "stag-hunt": { business: 6, "friend-sharing": 6 },
};

/** Player `player`'s 4 cells of 10 decisions, each cell's sessions given by `sessionsOf` (none: imported). */
function cells(
  player: string,
  sessionsOf: (game: string, framing: string, counts: Record<string, number>) => Partial<CountCell>,
): CountCell[] {
  return GAMES.flatMap((game) =>
    ["business", "friend-sharing"].map((framing) => {
      const c = COOPERATE[game]?.[framing] as number;
      const counts = { cooperate: c, defect: 10 - c };
      return { player, game, framing, counts, ...sessionsOf(game, framing, counts) };
    }),
  );
}

describe("robustness of a player whose decisions all sit in one session", () => {
  const oneSession = cells("host", (_g, _f, counts) => ({ clusters: [counts], cluster_ids: ["S"] }));
  const imported = cells("host", () => ({}));

  it("draws the decisions one by one: the intervals of the same counts imported without sessions", () => {
    const live = robustnessAnalysis(oneSession, options);
    const plain = robustnessAnalysis(imported, options);
    // Shift of the prisoner's dilemma 3/10 − 8/10 = −0.5, with an interval, not the point [−0.5, −0.5].
    const shift = live.games[0]?.shift;
    expect(shift?.estimate).toBeCloseTo(-0.5, 12);
    expect((shift?.ci[1] as number) - (shift?.ci[0] as number)).toBeGreaterThan(0.3);
    expect(live.games.map((g) => g.shift?.ci)).toEqual(plain.games.map((g) => g.shift?.ci));
    expect(live.players[0]?.shift?.ci).toEqual(plain.players[0]?.shift?.ci);
    expect(live.unit).toBe("decision");
    expect(live.players.map((p) => [p.unit, p.cluster_scope])).toEqual([["decision", "cell"]]);
    expect(live.games.map((g) => g.unit)).toEqual(["decision", "decision"]);
  });

  it("says so in a note naming the player and why", () => {
    const note = robustnessAnalysis(oneSession, options).notes.find(
      (n) => n.name === "resampled_by_decision",
    );
    expect(note?.detail).toContain("player host (unit decision: one MCP session made all its 40 decisions)");
    expect(robustnessAnalysis(imported, options).notes.map((n) => n.name)).not.toContain(
      "resampled_by_decision",
    );
  });
});

describe("robustness of a player with one cell made by one session", () => {
  // Business: 5 sessions of 2 decisions in each game; friend-sharing: one session of 10 per game (its own).
  const pairs = (counts: Record<string, number>) => {
    const list: Record<string, number>[] = [];
    let c = counts.cooperate as number;
    for (let s = 0; s < 5; s++) {
      const k = Math.min(2, c);
      c -= k;
      list.push(k === 2 ? { cooperate: 2 } : k === 1 ? { cooperate: 1, defect: 1 } : { defect: 2 });
    }
    return list;
  };
  const record = (friendSessions: boolean) =>
    cells("mixed", (game, framing, counts) =>
      framing === "business"
        ? { clusters: pairs(counts), cluster_ids: [0, 1, 2, 3, 4].map((s) => `${game}-b${s}`) }
        : friendSessions
          ? { clusters: [counts], cluster_ids: [`${game}-f`] }
          : {},
    );

  it("draws that cell by decision and the others by session, and names the cells", () => {
    const result = robustnessAnalysis(record(true), options);
    // The one-session cells draw exactly as the same cells listed without sessions.
    const plain = robustnessAnalysis(record(false), options);
    expect(result.games.map((g) => g.shift?.ci)).toEqual(plain.games.map((g) => g.shift?.ci));
    expect(result.players.map((p) => [p.unit, p.cluster_scope])).toEqual([["session", "cell"]]);
    const note = result.notes.find((n) => n.name === "resampled_by_decision");
    expect(note?.detail).toContain(
      "player mixed, cells made by one session: prisoners-dilemma/friend-sharing, stag-hunt/friend-sharing",
    );
  });
});

describe("robustness of sessions spanning cells, one of them decided in by one session alone", () => {
  it("draws the sessions jointly over the other cells, and that cell by decision", () => {
    // Sessions A and B decide in both games' business cells; session C alone in both friend-sharing cells.
    // A takes the first 5 of the cell's decisions (cooperations first), B the other 5.
    const record = cells("joint", (_game, framing, counts) => {
      if (framing === "friend-sharing") return { clusters: [counts], cluster_ids: ["C"] };
      const c = counts.cooperate as number;
      const a = Math.min(5, c);
      return {
        clusters: [
          { cooperate: a, defect: 5 - a },
          { cooperate: c - a, defect: 5 - (c - a) },
        ],
        cluster_ids: ["A", "B"],
      };
    });
    const result = robustnessAnalysis(record, options);
    expect(result.players.map((p) => [p.unit, p.cluster_scope])).toEqual([["session", "player"]]);
    // The friend-sharing cells vary (by decision): the shift interval is not a point.
    const shift = result.games[1]?.shift;
    expect((shift?.ci[1] as number) - (shift?.ci[0] as number)).toBeGreaterThan(0.3);
    expect(result.notes.find((n) => n.name === "resampled_by_decision")?.detail).toContain(
      "player joint, cells made by one session: prisoners-dilemma/friend-sharing, stag-hunt/friend-sharing",
    );
  });
});

describe("compare: sessions spanning cells, one cell decided in by one session alone", () => {
  it("draws that cell by decision and the sessions jointly over the others", () => {
    const row = (framing: string, action: string, count: number, unit: string): ComparisonRow => ({
      group: "m",
      game: "prisoners-dilemma",
      framing,
      action,
      count,
      unit,
      position: null,
    });
    const rows = [
      row("business", "cooperate", 3, "A"),
      row("business", "defect", 2, "B"),
      row("friend-sharing", "cooperate", 1, "A"),
      row("friend-sharing", "defect", 4, "A"),
    ];
    const sample = groupSample("m", rows, () => ["cooperate", "defect"]);
    expect(sample.unit).toBe("session");
    // Business (cell 0) is drawn from A and B; friend-sharing (cell 1), A's alone, by decision.
    const units = sample.strata.filter((s) => s.kind === "units");
    expect(units.map((s) => (s.kind === "units" ? [s.cells, s.units.length] : null))).toEqual([[[0], 2]]);
    expect(
      sample.strata.filter((s) => s.kind === "decisions").map((s) => (s.kind === "decisions" ? s.cell : -1)),
    ).toEqual([1]);
  });

  it("is unit decision when every cell was decided in by one session", () => {
    const rows = ["business", "friend-sharing"].flatMap((framing, f) =>
      ["prisoners-dilemma", "stag-hunt"].map(
        (game): ComparisonRow => ({
          group: "split",
          game,
          framing,
          action: "cooperate",
          count: 3,
          unit: `session-${f}`,
          position: null,
        }),
      ),
    );
    expect(groupSample("split", rows, () => ["cooperate", "defect"]).unit).toBe("decision");
    const result = compareGroups(
      [...rows, ...rows.map((r) => ({ ...r, group: "other", unit: null, action: "defect" }))],
      {
        framings: ["business", "friend-sharing"],
        actionsOf: () => ["cooperate", "defect"],
        cooperativeAction: () => "cooperate",
        bootstrap: 200,
        seed: 1,
      },
    );
    expect(result.group_details.map((g) => [g.group, g.unit])).toEqual([
      ["other", "decision"],
      ["split", "decision"],
    ]);
  });
});
