import { describe, expect, it } from "vitest";
import { sessionTallies } from "../../src/queries/session-tallies.js";

// A session's tally rows as the store's text gives them (JSON arrays [game, variant, framing, action,
// count, order_position], in any order), read back as the per-action rows of the store's key order.
describe("a session's tallies", () => {
  it("reads rows in key order as they are, the order position as decisions listed first and listed", () => {
    const text = '["pd","base","business","cooperate",2,0],["pd","base","business","defect",1,1]';
    expect(sessionTallies(text)).toEqual([
      ["pd", "base", "business", "cooperate", 2, 2, 2],
      ["pd", "base", "business", "defect", 1, 0, 1],
    ]);
  });

  it("sorts rows by game, variant, framing and action, and sums rows of the same key", () => {
    // The friend-sharing defections: 2 listed second, 1 in a game of three actions (-1: not listed).
    const text =
      '["pd","base","friend-sharing","defect",2,1],["pd","base","business","cooperate",1,0],["pd","base","friend-sharing","defect",1,-1]';
    expect(sessionTallies(text)).toEqual([
      ["pd", "base", "business", "cooperate", 1, 1, 1],
      ["pd", "base", "friend-sharing", "defect", 3, 0, 2],
    ]);
  });

  it("reads counts the engine gave as text", () => {
    expect(sessionTallies('["pd","base","business","defect","4","0"]')).toEqual([
      ["pd", "base", "business", "defect", 4, 4, 4],
    ]);
  });
});
