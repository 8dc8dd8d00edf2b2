import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/domain/catalog.js";
import { certifyFraming } from "../../src/domain/certify.js";
import type { Framing, RepeatedWording } from "../../src/domain/framing.js";

// What the agent reads besides the story: table headings, the wording of repeated play and the units an
// amount is written in. A number there misstates the payoffs or tells the horizon a study hides, so a
// framing that puts one there is refused like a story that does.
// Repeated Prisoner's Dilemma: 16 rounds, stage payoffs (C,C)=4,4 (C,D)=1,6 (D,C)=6,1 (D,D)=2,2.
// Prisoner's Dilemma: (C,C)=5,5 (C,D)=2,10 (D,C)=10,2 (D,D)=3,3.

const catalog = loadCatalog();
const repeatedPd = catalog.game("repeated-pd");
const repeatedBase = catalog.variant(repeatedPd.id, "base");
const repeatedPlain = catalog.framing("repeated-plain", repeatedPd.id);
const pd = catalog.game("prisoners-dilemma");
const pdBase = catalog.variant(pd.id, "base");
const business = catalog.framing("business", pd.id);
const relabeled = catalog.framing("relabeled", pd.id);

function withRepeated(change: Partial<RepeatedWording>): Framing {
  return {
    ...repeatedPlain,
    repeated: { ...(repeatedPlain.repeated as RepeatedWording), ...change },
  };
}

describe("certification of a framing's fixed wording", () => {
  it("still certifies the shipped repeated and business framings", () => {
    expect(certifyFraming(repeatedPd, repeatedBase, repeatedPlain)).toBeGreaterThan(0);
    expect(certifyFraming(pd, pdBase, business)).toBeGreaterThan(0);
  });

  it("refuses a round heading that tells the hidden horizon: This is round {round} of 16.", () => {
    expect(() =>
      certifyFraming(
        repeatedPd,
        repeatedBase,
        withRepeated({ roundHeading: "This is round {round} of 16." }),
      ),
    ).toThrow(
      'framing "repeated-plain" for game "repeated-pd" (variant base): its repeated round_heading states "16"',
    );
  });

  it("refuses a hidden-horizon sentence that names the number of rounds in words", () => {
    expect(() =>
      certifyFraming(
        repeatedPd,
        repeatedBase,
        withRepeated({ horizonHidden: "You will play sixteen rounds against the same opponent." }),
      ),
    ).toThrow('its repeated horizon_hidden states "sixteen"');
  });

  it("refuses an amount in the history's outcome line beside {own_amount}", () => {
    const outcome =
      "Round {round}: you picked {own_label}, your opponent picked {other_label}, and you scored {own_amount}, 10 less than your opponent.";
    expect(() => certifyFraming(repeatedPd, repeatedBase, withRepeated({ outcome }))).toThrow(
      'its repeated outcome states "10"',
    );
  });

  it("refuses a table heading that scales every amount under it: Your firm's profit x 10", () => {
    const table = business.payoffs.table as NonNullable<Framing["payoffs"]["table"]>;
    const scaled: Framing = {
      ...business,
      payoffs: { ...business.payoffs, table: { ...table, ownPayoff: "Your firm's profit x 10" } },
    };
    expect(() => certifyFraming(pd, pdBase, scaled)).toThrow(
      'framing "business" for game "prisoners-dilemma" (variant base): its table heading own_payoff states "10"',
    );
  });

  it("reads a typographic minus in the units as a sign: −{n} points shows the payoff 5 as −5", () => {
    const minus: Framing = { ...relabeled, units: { one: "\u2212{n} point", other: "\u2212{n} points" } };
    expect(() => certifyFraming(pd, pdBase, minus)).toThrow(
      "gives the agent -5 but the game pays the agent 5",
    );
  });

  it("refuses units whose form for 1 states another scale than the form for other amounts", () => {
    // Repeated PD pays 1 on (C,D): "1 thousand points" beside "6 points" makes the sucker's payoff the best.
    const scaled: Framing = { ...repeatedPlain, units: { one: "{n} thousand points", other: "{n} points" } };
    expect(() => certifyFraming(repeatedPd, repeatedBase, scaled)).toThrow(
      'its units state "thousand" for an amount of 1 and no scale for every other amount',
    );
    const mixed: Framing = {
      ...relabeled,
      units: { one: "{n} thousand points", other: "{n} million points" },
    };
    expect(() => certifyFraming(pd, pdBase, mixed)).toThrow(
      'its units state "thousand" for an amount of 1 and "million" for every other amount',
    );
  });

  it("accepts one scale written in two inflections, as French writes 1 million and 5 millions", () => {
    const french: Framing = {
      ...relabeled,
      units: { one: "{n} million d'euros", other: "{n} millions d'euros" },
    };
    expect(certifyFraming(pd, pdBase, french)).toBeGreaterThan(0);
    expect(certifyFraming(pd, pdBase, catalog.framing("role", pd.id))).toBeGreaterThan(0);
  });

  it("refuses units that put a sign word before the amount: minus {n} points shows a payoff of 5 as a loss", () => {
    const minus: Framing = { ...relabeled, units: { one: "minus {n} point", other: "minus {n} points" } };
    expect(() => certifyFraming(pd, pdBase, minus)).toThrow(
      "its units (one) say \"minus\": an amount's sign is the game's, written by {n}, so a unit may not add one",
    );
    const moins: Framing = { ...relabeled, units: { one: "{n} point", other: "moins {n} points" } };
    expect(() => certifyFraming(pd, pdBase, moins)).toThrow('its units (other) say "moins"');
  });
});
