// Textbook and catalog stage games (SPEC §2) for the equilibrium, deviation, metrics and opponent tests.

import type { ActionId, StageGame } from "../../src/domain/types.js";

/** A symmetric game: the column player's payoffs are the transpose of the row player's. */
export function symmetricGame(actions: readonly ActionId[], u1: readonly (readonly number[])[]): StageGame {
  return {
    actions,
    u1,
    u2: actions.map((_, i) => actions.map((_, j) => (u1[j] as readonly number[])[i] as number)),
  };
}

/** A PD-family game from the row player's payoffs for (C,C), (C,D), (D,C), (D,D). */
export function dilemma(cc: number, cd: number, dc: number, dd: number): StageGame {
  return symmetricGame(
    ["cooperate", "defect"],
    [
      [cc, cd],
      [dc, dd],
    ],
  );
}

export const prisonersDilemma = dilemma(5, 2, 10, 3);
export const snowdrift = dilemma(5, 3, 10, 2);
export const stagHunt = dilemma(10, 2, 5, 3);
export const harmony = dilemma(10, 3, 5, 2);
export const repeatedPd = dilemma(4, 1, 6, 2);
/** The payoff counterfactual of repeated-pd: a stag-hunt structure. */
export const repeatedPdCounterfactual = dilemma(6, 1, 4, 2);

const RPS = ["rock", "paper", "scissors"];
export const rockPaperScissors = symmetricGame(RPS, [
  [0, -1, 1],
  [1, 0, -1],
  [-1, 1, 0],
]);
/** Paper beating rock is worth ±3, the other two wins ±1. */
export const rockPaperScissorsCounterfactual = symmetricGame(RPS, [
  [0, -3, 1],
  [3, 0, -1],
  [-1, 1, 0],
]);

export const matchingPennies: StageGame = {
  actions: ["heads", "tails"],
  u1: [
    [1, -1],
    [-1, 1],
  ],
  u2: [
    [-1, 1],
    [1, -1],
  ],
};

/** Row prefers opera (2 vs 1), column prefers football (2 vs 1); miscoordination pays 0. */
export const battleOfTheSexes: StageGame = {
  actions: ["opera", "football"],
  u1: [
    [2, 0],
    [0, 1],
  ],
  u2: [
    [1, 0],
    [0, 2],
  ],
};

/**
 * A degenerate game (row T/B, column L/R): against T the column player is indifferent, so (T, y·L + (1−y)·R)
 * is an equilibrium for every y ∈ [½, 1], beside (B, R). Its equilibria: (T,L), (B,R), (T, ½L+½R).
 */
export const degenerateTB: StageGame = {
  actions: ["T", "B"],
  u1: [
    [1, 0],
    [0, 1],
  ],
  u2: [
    [1, 1],
    [0, 2],
  ],
};
