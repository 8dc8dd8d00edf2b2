import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/domain/catalog.js";
import { certifyPrompt, permutations } from "../../src/domain/certify.js";
import { renderPrompt } from "../../src/domain/render.js";
import { PROMPT_STYLES } from "../../src/domain/types.js";
import { packageRoot } from "../../src/package-root.js";

const root = packageRoot();
const fixtures = join(root, "test", "domain", "fixtures");
const catalog = loadCatalog();

describe("shipped catalog", () => {
  it("holds the games of SPEC §2 and fifteen framing files, each shown with every label set", () => {
    expect(catalog.games.map((game) => game.id)).toEqual([
      "battle-of-the-sexes",
      "chicken-large-stakes",
      "coordination-3x3",
      "harmony",
      "matching-pennies",
      "prisoners-dilemma",
      "repeated-pd",
      "rock-paper-scissors",
      "snowdrift",
      "stag-hunt",
    ]);
    // 13 framing files × (story-true, familiar, neutral) + the 2 counterfactual ones with their own labels.
    expect(catalog.framings).toHaveLength(13 * 3 + 2);
    expect(new Set(catalog.framings.map((framing) => framing.presentation.framing)).size).toBe(15);
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
    // One-shot: 4 games × 1 variant × 11 framings × 3 label sets × 2 orders × 3 styles = 792.
    // repeated-pd: (2 variants × 3 label sets + 2 counterfactual variants × 1) × 2 orders × 3 styles = 48.
    // rock-paper-scissors: (2 × 3 + 2) × 6 orders × 3 styles = 144.   792 + 48 + 144 = 984.
    // Added games: chicken-large-stakes like any cooperate/defect game, 33 × 2 × 3 = 198; the games of
    // other actions fit only the any-shape framings (abstract-matrix, neutral-narrative) × 3 label sets:
    // battle-of-the-sexes and matching-pennies 6 × 2 × 3 = 36 each, coordination-3x3 6 × 6 × 3 = 108.
    expect(combinations).toBe(984 + 198 + 36 + 36 + 108);
    // Loading rendered the same, with both horizons for the repeated games: 1362 + 48 + 144 = 1554.
    expect(catalog.certifiedPrompts).toBe(1554);
    // Pairings: 5 × 33 + 8 + 8 + 3 × 6 = 199.
    expect(catalog.pairings).toHaveLength(199);
  });

  it("pairs the eleven story framings with each one-shot game and the counterfactual labels with label/joint", () => {
    const stories = [
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
    ];
    expect(catalog.framingsFor("snowdrift", "base").map((framing) => framing.id)).toEqual(
      stories.flatMap((story) => [story, `${story}+familiar`, `${story}+neutral`]),
    );
    const ids = (game: string, variant: string) =>
      catalog.framingsFor(game, variant).map((framing) => framing.id);
    const plain = ["repeated-plain", "repeated-plain+familiar", "repeated-plain+neutral"];
    expect(ids("repeated-pd", "base")).toEqual(plain);
    expect(ids("repeated-pd", "payoff")).toEqual(plain);
    expect(ids("repeated-pd", "label")).toEqual(["repeated-stag-hare"]);
    expect(ids("repeated-pd", "joint")).toEqual(["repeated-stag-hare"]);
    expect(ids("rock-paper-scissors", "joint")).toEqual(["rps-swapped"]);
  });

  it("names every story's actions in its own world; the textbook names survive only as the familiar set", () => {
    const labels = (id: string) => Object.values(catalog.framing(id, "prisoners-dilemma").labels);
    expect(labels("business")).toEqual(["Hold the price", "Undercut"]);
    expect(labels("friend-sharing")).toEqual(["Chip in", "Keep it"]);
    expect(labels("business+familiar")).toEqual(["Cooperate", "Defect"]);
    expect(labels("friend-sharing+neutral")).toEqual(["J", "F"]);
    const loaded = /\b(cooperat|defect|betray|cheat|selfish|fair|honest|trust)/i;
    for (const framing of catalog.framings.filter((f) => f.presentation.labels === "story-true")) {
      for (const label of Object.values(framing.labels)) {
        expect(loaded.test(label), `${framing.id}: "${label}"`).toBe(false);
      }
    }
  });

  it("gives the column player its own payoffs in an asymmetric game, in the stage game and the prompt", () => {
    // Battle of the Sexes: the row player prefers opera (3 vs 2), the column player football (3 vs 2).
    expect(catalog.stageGame("battle-of-the-sexes", "base")).toEqual({
      actions: ["opera", "football"],
      u1: [
        [3, 0],
        [0, 2],
      ],
      u2: [
        [2, 0],
        [0, 3],
      ],
    });
    const game = catalog.game("battle-of-the-sexes");
    const text = renderPrompt({
      game,
      variant: catalog.variant(game.id, "base"),
      framing: catalog.framing("abstract-matrix+familiar", game.id),
      actionOrder: game.actions,
      style: "zero-shot",
    });
    expect(text).toContain("| Opera | Opera | 3 points | 2 points |");
    expect(text).toContain("| Football | Football | 2 points | 3 points |");
    expect(catalog.framingsFor("matching-pennies", "base").map((f) => f.id)).toEqual([
      "abstract-matrix",
      "abstract-matrix+familiar",
      "abstract-matrix+neutral",
      "neutral-narrative",
      "neutral-narrative+familiar",
      "neutral-narrative+neutral",
    ]);
    expect(Object.values(catalog.framing("abstract-matrix", "coordination-3x3").labels)).toEqual([
      "X",
      "Y",
      "Z",
    ]);
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
      'Unknown game "chess"; valid: battle-of-the-sexes, chicken-large-stakes, coordination-3x3, harmony, matching-pennies, prisoners-dilemma, repeated-pd, rock-paper-scissors, snowdrift, stag-hunt.',
    );
    expect(() => catalog.variant("harmony", "payoff")).toThrow(
      'Unknown variant of game "harmony" "payoff"; valid: base.',
    );
    expect(() => catalog.framing("poker-night")).toThrow(
      /Unknown framing "poker-night"; valid: abstract-matrix, abstract-matrix\+familiar, abstract-matrix\+neutral, business/,
    );
  });
});

describe("refused catalogs", () => {
  const withFramings = (name: string) =>
    loadCatalog({ gamesDir: join(root, "games"), framingsDir: join(fixtures, name, "framings") });

  it("refuses a framing that misstates one payoff, naming the profile and both values", () => {
    // u1(defect, cooperate) = 10 in prisoners-dilemma; the fixture's hand-written sentence says 9.
    expect(() => withFramings("wrong-payoff")).toThrow(
      'framing "wrong-payoff" for game "prisoners-dilemma" (variant base): in the payoff sentences, profile (agent defect, other cooperate) gives the agent 9 but the game pays the agent 10.',
    );
  });

  it("refuses a framing whose two actions share a label", () => {
    expect(() => withFramings("shared-label")).toThrow(
      'framing "shared-label" for game "prisoners-dilemma" (variant base): actions "cooperate" and "defect" share the label "Go".',
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
