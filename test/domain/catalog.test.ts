import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/domain/catalog.js";
import { certifyPrompt, permutations } from "../../src/domain/certify.js";
import { PROMPT_STYLES } from "../../src/domain/types.js";
import { packageRoot } from "../../src/package-root.js";

const root = packageRoot();
const fixtures = join(root, "test", "domain", "fixtures");
const catalog = loadCatalog();

describe("shipped catalog", () => {
  it("holds the six games of SPEC §2 and fifteen framings", () => {
    expect(catalog.games.map((game) => game.id)).toEqual([
      "harmony",
      "prisoners-dilemma",
      "repeated-pd",
      "rock-paper-scissors",
      "snowdrift",
      "stag-hunt",
    ]);
    expect(catalog.framings).toHaveLength(15);
  });

  it("certifies every (game, variant, framing, action order, style) it pairs", () => {
    let combinations = 0;
    for (const { game, variant, framing } of catalog.pairings) {
      for (const actionOrder of permutations(game.actions)) {
        for (const style of PROMPT_STYLES) {
          const horizons = game.rounds > 1 ? (["revealed", "hidden"] as const) : [undefined];
          for (const horizon of horizons) {
            const repeated = horizon && { round: 1, horizon, historyMode: "none" as const, history: [] };
            expect(() =>
              certifyPrompt({
                game,
                variant,
                framing,
                actionOrder,
                style,
                ...(repeated ? { repeated } : {}),
              }),
            ).not.toThrow();
          }
          combinations++;
        }
      }
    }
    // One-shot: 4 games × 1 variant × 11 framings × 2 orders × 3 styles = 264.
    // repeated-pd: 4 variants × 1 framing × 2 orders × 3 styles = 24.
    // rock-paper-scissors: 4 variants × 1 framing × 6 orders × 3 styles = 72.   264 + 24 + 72 = 360.
    expect(combinations).toBe(360);
    // Loading rendered the same, with both horizons for the repeated games: 264 + 2 × (24 + 72) = 456.
    expect(catalog.certifiedPrompts).toBe(456);
    // Pairings: 4 × 11 + 4 + 4 = 52.
    expect(catalog.pairings).toHaveLength(52);
  });

  it("pairs the eleven story framings with each one-shot game and the counterfactual labels with label/joint", () => {
    expect(catalog.framingsFor("snowdrift", "base").map((framing) => framing.id)).toEqual([
      "abstract-matrix",
      "business",
      "competitive-narrative",
      "cooperative-narrative",
      "diplomatic",
      "environmental",
      "friend-sharing",
      "neutral-narrative",
      "relabeled",
      "role",
      "team",
    ]);
    const ids = (game: string, variant: string) =>
      catalog.framingsFor(game, variant).map((framing) => framing.id);
    expect(ids("repeated-pd", "base")).toEqual(["repeated-plain"]);
    expect(ids("repeated-pd", "payoff")).toEqual(["repeated-plain"]);
    expect(ids("repeated-pd", "label")).toEqual(["repeated-stag-hare"]);
    expect(ids("repeated-pd", "joint")).toEqual(["repeated-stag-hare"]);
    expect(ids("rock-paper-scissors", "joint")).toEqual(["rps-swapped"]);
  });

  it("builds the stage game of a variant with u2(a, b) = u1(b, a)", () => {
    // SPEC §2: repeated-pd payoff counterfactual (C,C)=6,6 (C,D)=1,4 (D,C)=4,1 (D,D)=2,2.
    expect(catalog.stageGame("repeated-pd", "payoff")).toEqual({
      actions: ["cooperate", "defect"],
      u1: [
        [6, 1],
        [4, 2],
      ],
      u2: [
        [6, 4],
        [1, 2],
      ],
    });
    // RPS payoff counterfactual: paper beating rock is worth ±3, the other wins ±1.
    const rps = catalog.stageGame("rock-paper-scissors", "payoff");
    expect(rps.u1).toEqual([
      [0, -3, 1],
      [3, 0, -1],
      [-1, 1, 0],
    ]);
    expect(rps.u2[0]).toEqual([0, 3, -1]);
  });

  it("refuses unknown ids naming the valid ones", () => {
    expect(() => catalog.game("chess")).toThrow(
      'Unknown game "chess"; valid: harmony, prisoners-dilemma, repeated-pd, rock-paper-scissors, snowdrift, stag-hunt.',
    );
    expect(() => catalog.variant("harmony", "payoff")).toThrow(
      'Unknown variant of game "harmony" "payoff"; valid: base.',
    );
    expect(() => catalog.framing("poker-night")).toThrow(
      /Unknown framing "poker-night"; valid: abstract-matrix, business/,
    );
  });
});

describe("refused catalogs", () => {
  const withFramings = (name: string) =>
    loadCatalog({ gamesDir: join(root, "games"), framingsDir: join(fixtures, name, "framings") });

  it("refuses a framing that misstates one payoff, naming the profile and both values", () => {
    // u1(defect, cooperate) = 10 in prisoners-dilemma; the fixture's hand-written sentence says 9.
    expect(() => withFramings("wrong-payoff")).toThrow(
      'framing "wrong-payoff" for game "prisoners-dilemma" (variant base): in the payoff sentences, profile (defect, cooperate) states 9 for you but the game says 10.',
    );
  });

  it("refuses a framing whose two actions share a label", () => {
    expect(() => withFramings("shared-label")).toThrow(
      'framing "shared-label" for game "prisoners-dilemma" (variant base): actions "cooperate" and "defect" share the label "Go".',
    );
  });

  it("reads the framing's own wording: swapped amounts or a units template with a stray digit fail", () => {
    const game = catalog.game("prisoners-dilemma");
    const variant = catalog.variant(game.id, "base");
    const team = catalog.framing("team");
    const certify = (framing: typeof team) =>
      certifyPrompt({ game, variant, framing, actionOrder: game.actions, style: "zero-shot" });
    const swapped = {
      ...team,
      payoffs: {
        ...team.payoffs,
        sentence:
          "If you choose {own_label} and your colleague chooses {other_label}, your colleague receives {other_amount} and you receive {own_amount}.",
      },
    };
    // Read as "own amount first": profile (cooperate, cooperate) is 5/5, then (cooperate, defect) reads 10 for you, game u1 = 2.
    expect(() => certify(swapped)).toThrow(
      "profile (cooperate, defect) states 10 for you but the game says 2",
    );
    const perTeamOfFive = {
      ...team,
      units: { one: "{n} point each for 5 people", other: "{n} points each for 5 people" },
    };
    expect(() => certify(perTeamOfFive)).toThrow(
      "names 2 action label(s) and 4 number(s) instead of 2 and 2",
    );
  });

  it("refuses a malformed game file naming the file and the field path", () => {
    expect(() =>
      loadCatalog({
        gamesDir: join(fixtures, "malformed-game", "games"),
        framingsDir: join(root, "framings"),
      }),
    ).toThrow("games/x.json: variants.payoff.payoffs.defect.cooperate: expected number, received string");
  });
});
