import { describe, expect, it } from "vitest";
import { listOpponents, OPPONENT_IDS, opponentMove, opponentsFor } from "../../src/domain/opponents/index.js";
import { createRng } from "../../src/domain/rng.js";
import { repeatedPd, rockPaperScissors } from "../analysis/equilibria-fixtures.js";
import { dilemmaGame, plainGame } from "./play.js";

describe("opponent registry", () => {
  it("lists every strategy of SPEC §7, agent last and not algorithmic", () => {
    expect(OPPONENT_IDS).toEqual([
      "always-cooperate",
      "always-defect",
      "tit-for-tat",
      "grim-trigger",
      "win-stay-lose-shift",
      "random",
      "pattern",
      "equilibrium-sampler",
      "best-response-last",
      "best-response-majority",
      "agent",
    ]);
    expect(
      listOpponents()
        .filter((entry) => !entry.algorithmic)
        .map((entry) => entry.id),
    ).toEqual(["agent"]);
  });

  it("knows which opponents apply: all of them to the PD, no PD-only strategy to RPS", () => {
    expect(opponentsFor(dilemmaGame(repeatedPd)).map((entry) => entry.id)).toEqual(OPPONENT_IDS);
    expect(opponentsFor(plainGame(rockPaperScissors)).map((entry) => entry.id)).toEqual([
      "random",
      "pattern",
      "equilibrium-sampler",
      "best-response-last",
      "best-response-majority",
      "agent",
    ]);
    // Without a cooperative action even a two-action game is outside the PD family.
    expect(opponentsFor(plainGame(repeatedPd)).map((entry) => entry.id)).not.toContain("tit-for-tat");
  });

  it("names the valid ids for an unknown opponent", () => {
    expect(() => opponentMove("copycat", {}, dilemmaGame(repeatedPd), [], createRng(1))).toThrow(
      /Unknown opponent "copycat"; valid opponents: always-cooperate, .*, agent\./,
    );
  });

  it("names the applicable ones for a strategy that does not fit the game", () => {
    expect(() => opponentMove("tit-for-tat", {}, plainGame(rockPaperScissors), [], createRng(1))).toThrow(
      /Opponent "tit-for-tat" does not apply to a game with actions rock, paper, scissors; the ones that do are random, pattern/,
    );
  });

  it("leaves agent moves to the engine", () => {
    expect(() => opponentMove("agent", {}, dilemmaGame(repeatedPd), [], createRng(1))).toThrow(
      /engine relays/,
    );
  });

  it("refuses parameters a strategy does not take", () => {
    expect(() =>
      opponentMove("tit-for-tat", { forgiveness: 0.1 }, dilemmaGame(repeatedPd), [], createRng(1)),
    ).toThrow(/Invalid params for opponent "tit-for-tat"/);
  });
});
