import { describe, expect, it } from "vitest";
import { parseFramingFile } from "../../src/domain/framing.js";
import { parseGameFile } from "../../src/domain/game.js";

/** A valid 2×2 game file; each test breaks one thing. */
function gameFile() {
  return {
    id: "coordination",
    title: "Pure coordination",
    actions: ["left", "right"],
    cooperative_action: null,
    rounds: 1,
    payoffs: { left: { left: 1, right: 0 }, right: { left: 0, right: 1 } },
    variants: { base: { labels: "familiar" } },
  };
}

function setAt(target: object, path: readonly string[], value: unknown): void {
  const parent = path
    .slice(0, -1)
    .reduce((node, key) => (node as Record<string, object>)[key] as object, target);
  const key = path.at(-1) as string;
  if (value === undefined) delete (parent as Record<string, unknown>)[key];
  else (parent as Record<string, unknown>)[key] = value;
}

describe("game files", () => {
  it("accepts a new 2×2 game from data alone", () => {
    const game = parseGameFile(gameFile(), "games/coordination.json");
    expect(game.actions).toEqual(["left", "right"]);
    expect(game.variants.base?.payoffs.right?.right).toBe(1);
  });

  // [field path, new value (undefined deletes it), expected error]
  it.each<[string[], unknown, string]>([
    [
      ["payoffs", "right", "left"],
      undefined,
      "games/g.json: payoffs.right.left: expected number, found no payoff",
    ],
    [["payoffs", "up"], { left: 1, right: 1 }, "games/g.json: payoffs.up: expected one of left, right"],
    [["cooperative_action"], "up", "games/g.json: cooperative_action: expected null or one of left, right"],
    [["variants", "twist"], { labels: "familiar" }, 'games/g.json: variants: Unrecognized key: "twist"'],
    [
      ["variants", "label"],
      { labels: "familiar" },
      'games/g.json: variants.label.labels: expected "counterfactual" for the label variant',
    ],
    [
      ["variants", "payoff"],
      { labels: "familiar" },
      "games/g.json: variants.payoff.payoffs: expected its own payoffs",
    ],
    [["actions"], ["left", "left"], "games/g.json: actions: expected distinct action ids"],
    [["rounds"], 0, "games/g.json: rounds: Too small: expected number to be >=1"],
  ])("refuses %j = %j", (path, value, message) => {
    const file = gameFile();
    setAt(file, path, value);
    expect(() => parseGameFile(file, "games/g.json")).toThrow(message);
  });
});

describe("framing files", () => {
  it("refuses a template with an unknown placeholder", () => {
    const file = {
      id: "f",
      applies_to: { actions: ["left", "right"], label_set: "familiar", play: "one-shot" },
      labels: { left: "Left", right: "Right" },
      parties: { self: ["you"], other: ["they"] },
      units: { one: "{n} point", other: "{n} points" },
      story: ["Two drivers meet on a narrow road."],
      payoffs: {
        intro: "Outcomes:",
        sentence: "If you go {own_label} and they go {other_label}, you get {amount}.",
      },
      question: "Which way?",
    };
    expect(() => parseFramingFile(file, "framings/f.json")).toThrow(
      "framings/f.json: payoffs.sentence: expected placeholders only from: {own_label} {other_label} {own_amount} {other_amount}",
    );
  });
});
