import { describe, expect, it } from "vitest";
import { callError, useConnectedClient } from "../support/harness.js";

const held = useConnectedClient();

const design = {
  name: "refusals",
  games: ["prisoners-dilemma", "snowdrift"],
  framings: ["business", "friend-sharing"],
  trials_per_cell: 3,
  seed: 7,
};

const refusal = (extra: Record<string, unknown>) =>
  callError(held.client, "register_study", { ...design, ...extra });

describe("register_study refuses a bad design naming the bad value", () => {
  it("names the value of an enum, seed or count field and the valid ones", async () => {
    expect(await refusal({ styles: ["cot"] })).toContain(
      'styles.0: "cot" is not a style; valid: zero-shot, chain-of-thought, persona',
    );
    expect(await refusal({ variants: ["bse"] })).toContain(
      'variants.0: "bse" is not a variant (did you mean "base"?); valid: base, label, payoff, joint',
    );
    expect(await refusal({ seed: 1.5 })).toContain(
      "seed: 1.5 is not a seed; give a whole number or a string of 1 to 100 characters",
    );
    expect(await refusal({ trials_per_cell: 2.5 })).toContain(
      "trials_per_cell: 2.5 is not a whole number from 1 to 100000",
    );
    expect(held.deps.store.listStudies()).toEqual([]);
  });

  it("says an unknown opponent is unknown, naming the nearest and the valid ones", async () => {
    expect(await refusal({ opponents: [{ id: "titfortat" }] })).toBe(
      'Unknown opponent "titfortat" (did you mean "tit-for-tat"?); valid opponents: always-cooperate, always-defect, tit-for-tat, grim-trigger, win-stay-lose-shift, random, pattern, equilibrium-sampler, best-response-last, best-response-majority, agent.',
    );
    // start_match says it the same way.
    expect(
      await callError(held.client, "start_match", { game: "prisoners-dilemma", opponent: "titfortat" }),
    ).toMatch(/^Unknown opponent "titfortat" \(did you mean "tit-for-tat"\?\); valid opponents: /);
    expect(held.deps.store.listStudies()).toEqual([]);
  });

  it("refuses a planned contrast named twice, naming the pair", async () => {
    const pair = { baseline: "business", comparison: "friend-sharing" };
    const expected =
      "planned_contrasts names business → friend-sharing twice; list each pair once, with every game it is planned in (or none for all).";
    expect(await refusal({ planned_contrasts: [pair, pair] })).toBe(expected);
    expect(await refusal({ planned_contrasts: [pair, { ...pair, games: ["snowdrift"] }] })).toBe(expected);
    expect(held.deps.store.listStudies()).toEqual([]);
  });
});
