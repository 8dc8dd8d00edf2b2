import { describe, expect, it } from "vitest";
import type { DecisionContext } from "../../src/agents/agent.js";
import { payoffReader } from "../../src/agents/payoff-reader.js";
import { otherMoveIn, readOwnPayoffs } from "../../src/agents/prompt-reading.js";
import { cooperationProbability, storyLean } from "../../src/agents/story-swayed.js";
import { uniformAgent } from "../../src/agents/uniform.js";
import { loadCatalog } from "../../src/domain/catalog.js";
import { renderPrompt } from "../../src/domain/render.js";
import { createRng } from "../../src/domain/rng.js";

const catalog = loadCatalog();

/** A one-shot decision as the server shows it, Defect listed first, with the story's familiar labels. */
function oneShot(game: string, story: string): DecisionContext {
  const framing = catalog.framing(`${story}+familiar`, game);
  const prompt = renderPrompt({
    game: catalog.game(game),
    variant: catalog.variant(game, "base"),
    framing,
    actionOrder: ["defect", "cooperate"],
    style: "zero-shot",
  });
  const labels = ["defect", "cooperate"].map((action) => framing.labels[action] as string);
  return { prompt, labels, round: 1, rounds: 1, previousOutcome: null };
}

describe("reference agents read only the prompt text", () => {
  it("reads the business prisoner's dilemma table back as the catalog payoffs", () => {
    const table = readOwnPayoffs(oneShot("prisoners-dilemma", "business").prompt, ["Defect", "Cooperate"]);
    // SPEC §2: (C,C) = 5, (C,D) = 2, (D,C) = 10, (D,D) = 3 for the row player.
    expect([...(table.get("Cooperate") ?? [])]).toEqual([
      ["Defect", 2],
      ["Cooperate", 5],
    ]);
    expect(table.get("Defect")?.get("Cooperate")).toBe(10);
  });

  it("reads the story-true wording too: Hold the price / Undercut", () => {
    const framing = catalog.framing("business", "prisoners-dilemma");
    const prompt = renderPrompt({
      game: catalog.game("prisoners-dilemma"),
      variant: catalog.variant("prisoners-dilemma", "base"),
      framing,
      actionOrder: ["cooperate", "defect"],
      style: "zero-shot",
    });
    const table = readOwnPayoffs(prompt, ["Hold the price", "Undercut"]);
    expect(table.get("Undercut")?.get("Hold the price")).toBe(10);
    expect(
      payoffReader.choose(
        { prompt, labels: ["Hold the price", "Undercut"], round: 1, rounds: 1, previousOutcome: null },
        createRng(1),
      ),
    ).toBe("Undercut");
  });

  it("best-responds to a ½ belief: defect in the PD, cooperate in the stag hunt", () => {
    // PD: ū(C) = (5+2)/2 = 3.5 < ū(D) = (10+3)/2 = 6.5. Stag hunt: ū(C) = (10+2)/2 = 6 > ū(D) = (5+3)/2 = 4.
    const rng = createRng(1);
    expect(payoffReader.choose(oneShot("prisoners-dilemma", "friend-sharing"), rng)).toBe("Defect");
    expect(payoffReader.choose(oneShot("stag-hunt", "business"), rng)).toBe("Cooperate");
  });

  it("copies the other's last move from the outcome text in repeated play", () => {
    const outcome = "Round 3: you picked Cooperate, your opponent picked Defect, and you scored 1 point.";
    expect(otherMoveIn(outcome, ["Cooperate", "Defect"])).toBe("Defect");
  });

  it("leans on story words: −2 for business, +2 for friend-sharing", () => {
    // business: firm, profit; friend-sharing: friend, together. P(C) = 1/(1 + e^(−0.6·lean)).
    expect(storyLean(oneShot("harmony", "business").prompt)).toBe(-2);
    expect(storyLean(oneShot("harmony", "friend-sharing").prompt)).toBe(2);
    expect(cooperationProbability("no story words here")).toBe(0.5);
  });

  it("the uniform agent only ever answers a listed label, both of them over 100 draws", () => {
    const rng = createRng("uniform");
    const chosen = new Set(
      Array.from({ length: 100 }, () => uniformAgent.choose(oneShot("snowdrift", "business"), rng)),
    );
    expect([...chosen].sort()).toEqual(["Cooperate", "Defect"]);
  });
});
