// One player's tallies folded into the session types the bootstrap draws.
import { describe, expect, it } from "vitest";
import { PlayerTallies } from "../../src/queries/player-tallies.js";
import type { SessionTally } from "../../src/queries/session-tallies.js";

describe("PlayerTallies", () => {
  it("folds 300 sessions spanning two cells into their two whole-session types", () => {
    // Session s decides once in (pd, a), choosing c, and once in (pd, b), choosing d when s is even and
    // c when odd: 600 entries and 300 sessions, past the first size of every list the tallies hold.
    const tallies = new PlayerTallies("p");
    for (let s = 0; s < 300; s++) {
      const rows: SessionTally[] = [
        ["pd", "base", "a", "c", 1, 0, 0],
        ["pd", "base", "b", s % 2 === 0 ? "d" : "c", 1, 0, 0],
      ];
      tallies.addSession(rows);
    }
    expect(tallies.spans).toBe(true);
    expect(tallies.cells.map((cell) => tallies.countsOf(cell))).toEqual([{ c: 300 }, { c: 150, d: 150 }]);
    const typeIds: string[] = [];
    const [a, b] = tallies.types(typeIds);
    // Type 0 (first seen, s = 0): c in a, d in b; type 1: c in both; 150 sessions each.
    expect(typeIds).toEqual(["type 0", "type 1"]);
    expect(a).toEqual({ clusters: [{ c: 1 }, { c: 1 }], ids: ["type 0", "type 1"], weights: [150, 150] });
    // In b listed by content, {"c": 1} before {"d": 1}: type 1 first.
    expect(b).toEqual({ clusters: [{ c: 1 }, { d: 1 }], ids: ["type 1", "type 0"], weights: [150, 150] });
  });
});
