import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { packCells, unpackCells } from "../../src/analysis/invariance/packed-cells.js";

// Two sessions of player p that decided in two framings of pd (s1 once in each, s2 standing for two
// sessions), and a player without sessions.
const one = { cooperate: 1 };
const two = { cooperate: 1, defect: 1 };
const cells: CountCell[] = [
  {
    player: "p",
    game: "pd",
    framing: "a",
    counts: { cooperate: 3, defect: 2 },
    clusters: [one, two],
    cluster_ids: ["s1", "s2"],
    cluster_weights: [1, 2],
  },
  { player: "p", game: "pd", framing: "b", counts: { cooperate: 1 }, clusters: [one], cluster_ids: ["s1"] },
  { player: "q", game: "pd", framing: "a", counts: { defect: 4 } },
];

describe("packed cells (the permutation worker's message)", () => {
  it("lists each counts object and id once, and each listing as indices into them", () => {
    const packed = packCells(cells);
    expect(packed.contents).toEqual([one, two]);
    expect(packed.ids).toEqual(["s1", "s2"]);
    expect([...(packed.cells[0]?.clusters ?? [])]).toEqual([0, 1]);
    expect([...(packed.cells[1]?.clusters ?? [])]).toEqual([0]);
    expect([...(packed.cells[1]?.ids ?? [])]).toEqual([0]);
    expect(packed.cells[2]?.clusters).toBeUndefined();
  });

  it("rebuilds the same cells through a message, their lists sharing one object per content", () => {
    const received = unpackCells(structuredClone(packCells(cells)));
    expect(received).toStrictEqual(cells);
    expect(received[0]?.clusters?.[0]).toBe(received[1]?.clusters?.[0]);
    expect("cluster_weights" in (received[1] as CountCell)).toBe(false);
  });
});
