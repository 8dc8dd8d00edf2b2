import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/domain/catalog.js";
import { permutations, readPayoffStatements } from "../../src/domain/certify.js";
import {
  HISTORY_MODES,
  type RepeatedContext,
  renderPrompt,
  renderRoundOutcome,
} from "../../src/domain/render.js";
import { PROMPT_STYLES } from "../../src/domain/types.js";

const catalog = loadCatalog();

/** Every prompt the catalog can show: one-shot prompts, and repeated prompts for rounds 1, 2 and 5. */
function everyPrompt(): { framingId: string; text: string }[] {
  const prompts: { framingId: string; text: string }[] = [];
  for (const { game, variant, framing } of catalog.pairings) {
    const contexts: (RepeatedContext | undefined)[] = [undefined];
    if (game.rounds > 1) {
      const [first, second] = game.actions as [string, string];
      const history = [
        { own: first, other: second, ownPoints: variant.payoffs[first]?.[second] as number },
        { own: second, other: second, ownPoints: variant.payoffs[second]?.[second] as number },
        { own: second, other: first, ownPoints: variant.payoffs[second]?.[first] as number },
        { own: first, other: first, ownPoints: variant.payoffs[first]?.[first] as number },
      ];
      contexts.splice(0, 1);
      for (const horizon of ["revealed", "hidden"] as const) {
        for (const historyMode of HISTORY_MODES) {
          for (const round of [1, 2, 5])
            contexts.push({ round, horizon, historyMode, history: history.slice(0, round - 1) });
        }
      }
    }
    for (const actionOrder of permutations(game.actions)) {
      for (const style of PROMPT_STYLES) {
        for (const repeated of contexts) {
          prompts.push({
            framingId: framing.presentation.framing,
            text: renderPrompt({
              game,
              variant,
              framing,
              actionOrder,
              style,
              ...(repeated ? { repeated } : {}),
            }),
          });
        }
      }
    }
  }
  return prompts;
}

describe("blinding", () => {
  const prompts = everyPrompt();
  const revealing = [
    "framing",
    "benchmark",
    "robustness",
    "experiment",
    "prisoner's dilemma",
    "prisoners dilemma",
    "stag hunt",
    "chicken",
    "snowdrift",
    "harmony",
    "prisoner's delight",
  ];

  it("renders every combination, repeated rounds with history included", () => {
    // Every framing is shown with 3 label sets (counterfactual ones with their own only).
    // One-shot: 4 games × 11 framings × 3 label sets × 2 orders × 3 styles = 792. Repeated: (repeated-pd
    // (2 × 3 + 2) pairings × 2 orders + rps (2 × 3 + 2) × 6 orders) × 3 styles = 192 order×style combos,
    // × 2 horizons × 3 history modes × 3 rounds = 3456.
    // Added one-shot games: chicken-large-stakes 198, battle-of-the-sexes 36, matching-pennies 36,
    // coordination-3x3 108 (see the catalog test).
    expect(prompts).toHaveLength(792 + 3456 + 198 + 36 + 36 + 108);
  });

  it("never names the framing, the study or a textbook game", () => {
    for (const { framingId, text } of prompts) {
      const lower = text.toLowerCase();
      for (const word of [...revealing, framingId, framingId.replaceAll("-", " ")]) {
        expect(lower.includes(word), `"${word}" in a ${framingId} prompt`).toBe(false);
      }
    }
  });

  it("offers Stag and Hare as the choices of the repeated label counterfactual", () => {
    const stagHare = prompts.filter(({ framingId }) => framingId === "repeated-stag-hare");
    expect(
      stagHare.every(
        ({ text }) =>
          text.endsWith("Answer with exactly one of: Stag or Hare.") ||
          text.endsWith("Answer with exactly one of: Hare or Stag."),
      ),
    ).toBe(true);
  });
});

describe("prompt text", () => {
  const pd = catalog.game("prisoners-dilemma");
  const base = catalog.variant("prisoners-dilemma", "base");

  it("lists payoffs and choices in the given action order and ends with the answer instruction", () => {
    const text = renderPrompt({
      game: pd,
      variant: base,
      framing: catalog.framing("relabeled"),
      actionOrder: ["defect", "cooperate"],
      style: "zero-shot",
    });
    // relabeled: cooperate = J, defect = F; PD u1(D,D)=3, u1(D,C)=10, u1(C,D)=2, u1(C,C)=5.
    expect(text).toContain(
      [
        "- If you pick F and the other player picks F, you are awarded 3 points and the other player is awarded 3 points.",
        "- If you pick F and the other player picks J, you are awarded 10 points and the other player is awarded 2 points.",
        "- If you pick J and the other player picks F, you are awarded 2 points and the other player is awarded 10 points.",
        "- If you pick J and the other player picks J, you are awarded 5 points and the other player is awarded 5 points.",
      ].join("\n"),
    );
    expect(text.endsWith("Which letter do you pick?\n\nAnswer with exactly one of: F or J.")).toBe(true);
  });

  it("asks for step-by-step reasoning or imagined experts before the final line", () => {
    const render = (style: "chain-of-thought" | "persona") =>
      renderPrompt({
        game: pd,
        variant: base,
        framing: catalog.framing("team+familiar"),
        actionOrder: pd.actions,
        style,
      });
    expect(render("chain-of-thought")).toMatch(
      /step by step.*final choice alone on the last line.*\n\nAnswer with exactly one of: Cooperate or Defect\.$/s,
    );
    expect(render("persona")).toMatch(
      /imagine three experts.*final choice alone on the last line.*\n\nAnswer with exactly one of: Cooperate or Defect\.$/s,
    );
  });

  it("states in the swapped hand-sign framing that Paper beats Scissors", () => {
    const game = catalog.game("rock-paper-scissors");
    const framing = catalog.framing("rps-swapped");
    const text = renderPrompt({
      game,
      variant: catalog.variant(game.id, "label"),
      framing,
      actionOrder: game.actions,
      style: "zero-shot",
      repeated: { round: 1, horizon: "hidden", historyMode: "none", history: [] },
    });
    // Surface Paper = canonical rock, which beats canonical scissors (+1 / −1); likewise Rock (canonical
    // paper) beats Paper (canonical rock) and Scissors beats Rock (canonical paper).
    expect(text).toContain(
      "- If you show Paper and your opponent shows Scissors, you score 1 point and your opponent scores -1 point.",
    );
    expect(text).toContain(
      "- If you show Rock and your opponent shows Paper, you score 1 point and your opponent scores -1 point.",
    );
    expect(text).toContain(
      "- If you show Scissors and your opponent shows Rock, you score 1 point and your opponent scores -1 point.",
    );
    const paperVsScissors = readPayoffStatements(text, framing.labels).statements.find(
      (statement) => statement.own === "rock" && statement.other === "scissors",
    );
    expect(paperVsScissors).toMatchObject({ ownPayoff: 1, otherPayoff: -1 });
  });

  it("reveals the horizon only when asked and shows the history the mode asks for", () => {
    const game = catalog.game("repeated-pd");
    const framing = catalog.framing("repeated-plain+familiar");
    const history = [
      { own: "cooperate", other: "defect", ownPoints: 1 },
      { own: "defect", other: "defect", ownPoints: 2 },
    ];
    const render = (horizon: "revealed" | "hidden", historyMode: "none" | "last" | "full") =>
      renderPrompt({
        game,
        variant: catalog.variant(game.id, "base"),
        framing,
        actionOrder: game.actions,
        style: "zero-shot",
        repeated: { round: 3, horizon, historyMode, history },
      });
    const round1 = "Round 1: you picked Cooperate, your opponent picked Defect, and you scored 1 point.";
    const round2 = "Round 2: you picked Defect, your opponent picked Defect, and you scored 2 points.";
    expect(render("revealed", "full")).toContain("You will play 16 rounds against the same opponent.");
    expect(render("revealed", "full")).toContain(`Results so far:\n${round1}\n${round2}\n\nThis is round 3.`);
    expect(render("hidden", "last")).toContain("you are not told how many");
    expect(render("hidden", "last")).not.toContain("16");
    expect(render("hidden", "last")).toContain(
      `Result of the previous round:\n${round2}\n\nThis is round 3.`,
    );
    expect(render("hidden", "none")).not.toContain("Round 2:");
    expect(renderRoundOutcome(framing, 2, history[1] as (typeof history)[number])).toBe(round2);
  });

  it("refuses an action order that is not a permutation of the game's actions", () => {
    expect(() =>
      renderPrompt({
        game: pd,
        variant: base,
        framing: catalog.framing("team"),
        actionOrder: ["defect"],
        style: "zero-shot",
      }),
    ).toThrow(
      'Action order ["defect"] is not an ordering of game "prisoners-dilemma"\'s actions cooperate, defect.',
    );
  });
});
