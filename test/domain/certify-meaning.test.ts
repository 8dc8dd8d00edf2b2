import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/domain/catalog.js";
import { CertificationError, certifyPrompt } from "../../src/domain/certify.js";
import type { Framing } from "../../src/domain/framing.js";
import { readPayoffsByMeaning } from "../../src/domain/payoff-meaning.js";
import { renderPrompt } from "../../src/domain/render.js";

// Certification by meaning: the mutations an audit found accepted by the positional reader.
// Prisoner's Dilemma: u(C,C) = 5, u(C,D) = 2, u(D,C) = 10, u(D,D) = 3 for the player choosing first.

const catalog = loadCatalog();
const game = catalog.game("prisoners-dilemma");
const variant = catalog.variant(game.id, "base");
const certify = (framing: Framing) =>
  certifyPrompt({ game, variant, framing, actionOrder: game.actions, style: "zero-shot" });
const business = catalog.framing("business", game.id);
const relabeled = catalog.framing("relabeled", game.id);

function withTable(framing: Framing, table: NonNullable<Framing["payoffs"]["table"]>): Framing {
  return { ...framing, payoffs: { ...framing.payoffs, table } };
}

describe("certification by meaning", () => {
  it("reads the shipped business prompt back to the game's exact matrix, by whose column and sentence it is", () => {
    const text = renderPrompt({
      game,
      variant,
      framing: business,
      actionOrder: game.actions,
      style: "zero-shot",
    });
    const { statements, unreadable } = readPayoffsByMeaning(text, business.labels, business.parties);
    expect(unreadable).toBeNull();
    const table = statements.filter((s) => s.source === "table");
    expect(table).toEqual([
      { source: "table", own: "cooperate", other: "cooperate", ownPayoff: 5, otherPayoff: 5 },
      { source: "table", own: "cooperate", other: "defect", ownPayoff: 2, otherPayoff: 10 },
      { source: "table", own: "defect", other: "cooperate", ownPayoff: 10, otherPayoff: 2 },
      { source: "table", own: "defect", other: "defect", ownPayoff: 3, otherPayoff: 3 },
    ]);
    expect(statements.filter((s) => s.source === "sentences")).toHaveLength(4);
  });

  it("refuses the table's two amount headings swapped, naming framing, game, profile and both values", () => {
    const table = business.payoffs.table as NonNullable<Framing["payoffs"]["table"]>;
    const swapped = withTable(business, {
      ...table,
      ownPayoff: table.otherPayoff,
      otherPayoff: table.ownPayoff,
    });
    expect(() => certify(swapped)).toThrow(
      'framing "business" for game "prisoners-dilemma" (variant base): in the payoff table, profile (agent cooperate, other defect) gives the agent 10 but the game pays the agent 2.',
    );
  });

  it("refuses the table's two action headings swapped", () => {
    const table = business.payoffs.table as NonNullable<Framing["payoffs"]["table"]>;
    const swapped = withTable(business, {
      ...table,
      ownAction: table.otherAction,
      otherAction: table.ownAction,
    });
    expect(() => certify(swapped)).toThrow(
      'framing "business" for game "prisoners-dilemma" (variant base): in the payoff table, profile (agent cooperate, other defect) gives the agent 10 but the game pays the agent 2.',
    );
  });

  it('refuses "the other player is awarded {own_amount} and you are awarded {other_amount}"', () => {
    const misattributed: Framing = {
      ...relabeled,
      payoffs: {
        ...relabeled.payoffs,
        sentence:
          "If you pick {own_label} and the other player picks {other_label}, the other player is awarded {own_amount} and you are awarded {other_amount}.",
      },
    };
    expect(() => certify(misattributed)).toThrow(
      'framing "relabeled" for game "prisoners-dilemma" (variant base): in the payoff sentences, profile (agent cooperate, other defect) gives the agent 10 but the game pays the agent 2.',
    );
    // The same words in the honest order certify: the reader follows the words, not the position.
    const honestOtherFirst: Framing = {
      ...relabeled,
      payoffs: {
        ...relabeled.payoffs,
        sentence:
          "If the other player picks {other_label} and you pick {own_label}, the other player is awarded {other_amount} and you are awarded {own_amount}.",
      },
    };
    expect(() => certify(honestOtherFirst)).not.toThrow();
  });

  it("refuses a false payoff claim inside the story, and number words in story or question", () => {
    const claim = {
      ...business,
      story: [...business.story, "Whatever happens, your firm is sure to make $4 million."],
    };
    expect(() => certify(claim)).toThrow(
      'framing "business" for game "prisoners-dilemma" (variant base): its story paragraph 3 states "4": story, intro, question, table headings and the wording of repeated play may contain no amounts or number words.',
    );
    const words = { ...business, question: "Which of the two decisions do you set?" };
    expect(() => certify(words)).toThrow('its question states "two"');
    const label = { ...business, story: [...business.story, "Most firms undercut."] };
    expect(() => certify(label)).toThrow('its story paragraph 3 names the label "Undercut"');
  });

  it("refuses a sentence that says neither whose action nor whose amount it is", () => {
    const anonymous: Framing = {
      ...relabeled,
      payoffs: {
        ...relabeled.payoffs,
        sentence: "{own_label} against {other_label}: {own_amount} and {other_amount}.",
      },
    };
    expect(() => certify(anonymous)).toThrow("states an action before naming whose it is");
  });

  it("is a one-sentence usage error, so the CLI exits 2 with it", () => {
    const table = business.payoffs.table as NonNullable<Framing["payoffs"]["table"]>;
    const swapped = withTable(business, {
      ...table,
      ownPayoff: table.otherPayoff,
      otherPayoff: table.ownPayoff,
    });
    expect(() => certify(swapped)).toThrow(CertificationError);
  });
});
