import { describe, expect, it } from "vitest";
import {
  repeatedPd,
  repeatedPdCounterfactual,
  rockPaperScissors,
  rockPaperScissorsCounterfactual,
} from "../analysis/equilibria-fixtures.js";
import { dilemmaGame, movesAgainst, plainGame } from "./play.js";

const C = "cooperate";
const D = "defect";

describe("best-response-last", () => {
  it("under repeated-pd payoffs defects after round 1, whatever the other did", () => {
    // Best response to C: u(C,C) = 4 < u(D,C) = 6 ⇒ D; to D: u(C,D) = 1 < u(D,D) = 2 ⇒ D.
    const moves = movesAgainst("best-response-last", dilemmaGame(repeatedPd), [C, D, C, C]);
    expect(moves.slice(1)).toEqual([D, D, D, D]);
  });

  it("under the payoff counterfactual copies the other's last move", () => {
    // Best response to C: 6 > 4 ⇒ C; to D: 2 > 1 ⇒ D.
    const moves = movesAgainst("best-response-last", dilemmaGame(repeatedPdCounterfactual), [C, D, C, C]);
    expect(moves.slice(1)).toEqual([C, D, C, C]);
  });

  it("in RPS plays what beats the other's last move", () => {
    const moves = movesAgainst("best-response-last", plainGame(rockPaperScissors), [
      "rock",
      "paper",
      "scissors",
    ]);
    expect(moves.slice(1)).toEqual(["paper", "scissors", "rock"]);
  });

  it("answers the most recent valid move when the last round had none", () => {
    const moves = movesAgainst("best-response-last", plainGame(rockPaperScissors), ["rock", null]);
    expect(moves.slice(1)).toEqual(["paper", "paper"]);
  });
});

describe("best-response-majority", () => {
  it("answers the most frequent move, ties going to the first action in catalog order", () => {
    // Counts after each round (rock, paper, scissors): (1,0,0) → rock; (1,1,0) tie → rock; (1,2,0) → paper;
    // (1,2,1) → paper; (1,2,2) tie → paper. Best responses: paper, paper, scissors, scissors, scissors.
    const moves = movesAgainst("best-response-majority", plainGame(rockPaperScissors), [
      "rock",
      "paper",
      "paper",
      "scissors",
      "scissors",
    ]);
    expect(moves.slice(1)).toEqual(["paper", "paper", "scissors", "scissors", "scissors"]);
  });

  it("follows the payoff counterfactual of RPS", () => {
    // Paper beating rock is worth 3, but each best response is unchanged: rock → paper (3), paper → scissors
    // (1 against 0 and −3), scissors → rock (1). Majority after (rock, scissors, scissors) is scissors.
    const moves = movesAgainst("best-response-majority", plainGame(rockPaperScissorsCounterfactual), [
      "rock",
      "scissors",
      "scissors",
    ]);
    expect(moves.slice(1)).toEqual(["paper", "paper", "rock"]);
  });

  it("under the PD counterfactual a C/D tie resolves to C, and C is answered with C", () => {
    const moves = movesAgainst("best-response-majority", dilemmaGame(repeatedPdCounterfactual), [C, D, D]);
    expect(moves.slice(1)).toEqual([C, C, D]);
  });
});
