import { describe, expect, it } from "vitest";
import { opponentMove } from "../../src/domain/opponents/index.js";
import { createRng } from "../../src/domain/rng.js";
import {
  battleOfTheSexes,
  degenerateTB,
  harmony,
  prisonersDilemma,
  rockPaperScissors,
  stagHunt,
} from "../analysis/equilibria-fixtures.js";
import { dilemmaGame, movesAgainst, plainGame } from "./play.js";

const rps = plainGame(rockPaperScissors);
const fiftyRounds = Array.from({ length: 49 }, (_, r) => ["rock", "paper", "scissors"][r % 3] as string);

describe("random", () => {
  it("the same seed reproduces 50 moves exactly; another seed gives another sequence", () => {
    const first = movesAgainst("random", rps, fiftyRounds, { seed: "7" });
    expect(first).toHaveLength(50);
    expect(movesAgainst("random", rps, fiftyRounds, { seed: "7" })).toEqual(first);
    expect(movesAgainst("random", rps, fiftyRounds, { seed: "8" })).not.toEqual(first);
    expect(new Set(first)).toEqual(new Set(["rock", "paper", "scissors"]));
  });

  it("follows given probabilities", () => {
    const moves = movesAgainst("random", rps, fiftyRounds, { params: { probabilities: { paper: 1 } } });
    expect(new Set(moves)).toEqual(new Set(["paper"]));
  });

  it("refuses probabilities that name an unknown action or do not sum to 1", () => {
    expect(() => movesAgainst("random", rps, [], { params: { probabilities: { lizard: 1 } } })).toThrow(
      /"lizard", which is not one of rock, paper, scissors/,
    );
    expect(() => movesAgainst("random", rps, [], { params: { probabilities: { rock: 0.5 } } })).toThrow(
      /sum to 0.5/,
    );
  });
});

describe("pattern", () => {
  it("repeats its cycle whatever the other does", () => {
    const moves = movesAgainst(
      "pattern",
      dilemmaGame(prisonersDilemma),
      ["cooperate", "cooperate", "defect", "cooperate"],
      {
        params: { cycle: ["defect", "cooperate"] },
      },
    );
    expect(moves).toEqual(["defect", "cooperate", "defect", "cooperate", "defect"]);
  });

  it("refuses a cycle with an action the game does not have, and a missing cycle", () => {
    expect(() => movesAgainst("pattern", rps, [], { params: { cycle: ["rock", "stag"] } })).toThrow(
      /"stag", which is not one of rock, paper, scissors/,
    );
    expect(() => movesAgainst("pattern", rps, [])).toThrow(/Invalid params for opponent "pattern": cycle/);
  });
});

describe("equilibrium-sampler", () => {
  it("plays the unique pure equilibrium when there is no completely mixed one", () => {
    expect(
      new Set(
        movesAgainst(
          "equilibrium-sampler",
          dilemmaGame(prisonersDilemma),
          fiftyRounds.map(() => "cooperate"),
        ),
      ),
    ).toEqual(new Set(["defect"]));
    expect(new Set(movesAgainst("equilibrium-sampler", dilemmaGame(harmony), []))).toEqual(
      new Set(["cooperate"]),
    );
  });

  it("draws from the completely mixed equilibrium of the stag hunt (P(C) = 1/6)", () => {
    const other = Array.from({ length: 599 }, () => "cooperate");
    const moves = movesAgainst("equilibrium-sampler", dilemmaGame(stagHunt), other, { seed: "s" });
    // 600 draws with p = 1/6: mean 100, sd = √(600 · 1/6 · 5/6) ≈ 9.1; ±30 is beyond 3 sd.
    const cooperations = moves.filter((m) => m === "cooperate").length;
    expect(cooperations).toBeGreaterThan(70);
    expect(cooperations).toBeLessThan(130);
  });

  it("the same seed reproduces 50 RPS draws; another seed differs", () => {
    const first = movesAgainst("equilibrium-sampler", rps, fiftyRounds, { seed: "a" });
    expect(movesAgainst("equilibrium-sampler", rps, fiftyRounds, { seed: "a" })).toEqual(first);
    expect(movesAgainst("equilibrium-sampler", rps, fiftyRounds, { seed: "b" })).not.toEqual(first);
  });

  it("uses the mixed equilibrium of battle of the sexes, the row player's (2/3, 1/3)", () => {
    const moves = movesAgainst("equilibrium-sampler", plainGame(battleOfTheSexes), Array(599).fill("opera"));
    const opera = moves.filter((m) => m === "opera").length;
    // Mean 400, sd = √(600 · 2/3 · 1/3) ≈ 11.5.
    expect(opera).toBeGreaterThan(360);
    expect(opera).toBeLessThan(440);
  });

  it("does not apply to a game with neither a completely mixed nor a unique pure equilibrium", () => {
    // Equilibria (T,L), (B,R) and (T, ½L+½R): two pure ones, none completely mixed.
    const twoPure = degenerateTB;
    expect(() => opponentMove("equilibrium-sampler", {}, plainGame(twoPure), [], createRng(1))).toThrow(
      /does not apply.*the ones that do are random, pattern, best-response-last, best-response-majority, agent/,
    );
  });
});

describe("first-round moves of the best-response strategies", () => {
  const firstMoves = (id: string, seed: string) =>
    Array.from({ length: 50 }, (_, match) => movesAgainst(id, rps, [], { seed: `${seed}-${match}` })[0]);

  for (const id of ["best-response-last", "best-response-majority"]) {
    it(`${id}: the same seeds give the same 50 first moves; other seeds differ`, () => {
      const first = firstMoves(id, "x");
      expect(firstMoves(id, "x")).toEqual(first);
      expect(firstMoves(id, "y")).not.toEqual(first);
      expect(new Set(first).size).toBe(3);
    });
  }
});
