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
});
