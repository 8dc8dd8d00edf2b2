// The table of distinct integer sequences that numbers a player's whole-session types.
import { describe, expect, it } from "vitest";
import { SequenceTable } from "../../src/queries/sequence-table.js";

describe("SequenceTable", () => {
  it("numbers sequences in the order first added and counts each", () => {
    const table = new SequenceTable();
    const add = (...values: number[]) => table.add(values, values.length);
    add(3, 0, 7, 1);
    add(3, 0);
    add(3, 0, 7, 1);
    add(3, 0, 7);
    add();
    add(3, 0);
    add(3, 0, 7, 1);
    // [3,0,7,1] ×3, [3,0] ×2, [3,0,7] ×1, [] ×1: a prefix is a sequence of its own.
    expect(table.size).toBe(4);
    expect([0, 1, 2, 3].map((t) => [Array.from(table.sequence(t)), table.count(t)])).toEqual([
      [[3, 0, 7, 1], 3],
      [[3, 0], 2],
      [[3, 0, 7], 1],
      [[], 1],
    ]);
  });

  it("reads only the given length of a reused buffer", () => {
    const table = new SequenceTable();
    const buffer = Int32Array.of(5, 6, 9, 9);
    table.add(buffer, 2);
    buffer[2] = 1;
    table.add(buffer, 2);
    expect(table.size).toBe(1);
    expect(table.count(0)).toBe(2);
  });

  it("keeps every sequence and count as it grows past its first capacity", () => {
    // 3,000 distinct sequences of 1–4 integers (past 256 sequences, 1,024 integers and 512 slots), each
    // added t % 3 + 1 times, in three rounds.
    const table = new SequenceTable();
    const of = (t: number) => Array.from({ length: (t % 4) + 1 }, (_, i) => t * 7 + i);
    for (let round = 0; round < 3; round++) {
      for (let t = 0; t < 3000; t++) if (round <= t % 3) table.add(of(t), of(t).length);
    }
    expect(table.size).toBe(3000);
    for (let t = 0; t < 3000; t++) {
      expect(Array.from(table.sequence(t))).toEqual(of(t));
      expect(table.count(t)).toBe((t % 3) + 1);
    }
  });
});
