import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  aggregateMatchMetrics,
  comprehensionRound,
  type MatchTranscript,
  matchMetrics,
  type TranscriptRound,
} from "../../src/analysis/repeated/repeated-metrics.js";
import type { ActionId, StageGame } from "../../src/domain/types.js";
import { repeatedPd, repeatedPdCounterfactual, rockPaperScissors } from "./equilibria-fixtures.js";

/** A round with the payoffs the stage game assigns (both null moves score 0 for both sides). */
function played(
  game: StageGame,
  move: ActionId | null,
  opponent: ActionId | null,
  extra = {},
): TranscriptRound {
  const i = move === null ? -1 : game.actions.indexOf(move);
  const j = opponent === null ? -1 : game.actions.indexOf(opponent);
  const valid = i >= 0 && j >= 0;
  return {
    move,
    opponent_move: opponent,
    payoff: valid ? (game.u1[i]?.[j] as number) : 0,
    opponent_payoff: valid ? (game.u2[i]?.[j] as number) : 0,
    ...extra,
  };
}

const C = "cooperate";
const D = "defect";

describe("comprehensionRound", () => {
  it("finds the start of a success run in mid-match", () => {
    // Suffix from 4: 3/3 = 1; from 3: 3/4 = 0.75 < 0.9 ⇒ m = 4.
    expect(comprehensionRound([true, false, false, true, true, true], 0.9)).toBe(4);
  });

  it("counts exactly 9 of 10 as meeting t = 0.9", () => {
    // From round 1: 9/10 = 0.9 ≥ 0.9 ⇒ m = 1.
    expect(comprehensionRound([false, true, true, true, true, true, true, true, true, true], 0.9)).toBe(1);
  });

  it("returns N + 1 ('never') when the last round fails", () => {
    // Any suffix contains the failed last round; the one of length 1 has share 0, and the longest has 2/3.
    expect(comprehensionRound([true, true, false], 0.9)).toBe(4);
  });
});

describe("matchMetrics on a hand-made stag-hunt match (repeated-pd payoff counterfactual: 6,1,4,2)", () => {
  // Rounds (own, other): (C,D) (D,C) (C,D) (D,C) (D,D) then (C,C) ×5; N = 10.
  const rounds = [
    played(repeatedPdCounterfactual, C, D),
    played(repeatedPdCounterfactual, D, C),
    played(repeatedPdCounterfactual, C, D),
    played(repeatedPdCounterfactual, D, C),
    played(repeatedPdCounterfactual, D, D),
    ...Array.from({ length: 5 }, () => played(repeatedPdCounterfactual, C, C)),
  ];
  const transcript: MatchTranscript = { rounds };

  it("totals, cooperation, distribution and win/loss/tie", () => {
    const metrics = matchMetrics(transcript, repeatedPdCounterfactual, C);
    // Points: 1 + 4 + 1 + 4 + 2 + 5·6 = 42.
    expect(metrics.total_points).toBe(42);
    expect(metrics.cooperation_rate).toBe(0.7);
    expect(metrics.action_distribution).toEqual({ cooperate: 0.7, defect: 0.3 });
    // Wins: the two (D,C) rounds (4 > 1); losses: the two (C,D) rounds; ties: the other 6.
    expect(metrics.win_loss_tie).toEqual({ win: 0.2, loss: 0.2, tie: 0.6 });
    expect(metrics.failure_rate).toBe(0);
    expect(metrics.invalid_attempts).toBe(0);
    expect(metrics.efficiency).toBeNull();
  });

  it("match rule: m = 5", () => {
    // s_r = [x_r ≥ u1(o_r, o_r)]: against C one needs 6, against D 2. (C,D) 1 < 2 and (D,C) 4 < 6 fail,
    // (D,D) and (C,C) succeed: s = 0,0,0,0,1,1,1,1,1,1. From 5: 6/6; from 4: 6/7 ≈ 0.857 ⇒ m = 5.
    const metrics = matchMetrics(transcript, repeatedPdCounterfactual, C);
    expect(metrics.comprehension_round).toBe(5);
    expect(metrics.comprehension_rule).toBe("match");
  });

  it("beat rule: m = 4", () => {
    // s_r = [x_r ≥ y_r]: now (D,C) succeeds (4 ≥ 1): s = 0,1,0,1,1,1,1,1,1,1. From 4: 7/7;
    // from 3: 7/8 = 0.875; from 2: 8/9 ≈ 0.889; from 1: 8/10 = 0.8 ⇒ m = 4.
    expect(matchMetrics(transcript, repeatedPdCounterfactual, C, { rule: "beat" }).comprehension_round).toBe(
      4,
    );
  });

  it("a looser threshold moves m earlier", () => {
    // t = 0.85 under the match rule: from 4 the share is 6/7 ≈ 0.857 ≥ 0.85; from 3 it is 6/8 = 0.75 ⇒ m = 4.
    expect(
      matchMetrics(transcript, repeatedPdCounterfactual, C, { threshold: 0.85 }).comprehension_round,
    ).toBe(4);
  });
});

describe("matchMetrics with invalid rounds and tokens (repeated-pd: 4,1,6,2)", () => {
  // (C,C) 4/4; no valid move after 3 bad replies, 0/0; (D,D) 2/2 after 1 bad reply; (D,C) 6/1.
  const rounds = [
    played(repeatedPd, C, C, { tokens: 100 }),
    played(repeatedPd, null, C, { tokens: 250, invalid_attempts: 3 }),
    played(repeatedPd, D, D, { tokens: 120, invalid_attempts: 1 }),
    played(repeatedPd, D, C, { tokens: 130 }),
  ];

  it("counts the round without a valid move as a failure everywhere", () => {
    const metrics = matchMetrics({ rounds }, repeatedPd, C);
    expect(metrics.total_points).toBe(12);
    expect(metrics.failure_rate).toBe(0.25);
    expect(metrics.invalid_attempts).toBe(4);
    // Cooperation is a share of all 4 rounds; the distribution is over the 3 valid moves.
    expect(metrics.cooperation_rate).toBe(0.25);
    expect(metrics.action_distribution).toEqual({ cooperate: 1 / 3, defect: 2 / 3 });
    expect(metrics.win_loss_tie).toEqual({ win: 0.25, loss: 0.25, tie: 0.5 });
    // s = 1 (4 ≥ 4), 0 (invalid), 1 (2 ≥ 2), 1 (6 ≥ 4). From 3: 2/2; from 2: 2/3 ⇒ m = 3.
    expect(metrics.comprehension_round).toBe(3);
    // Efficiency = 12 / max(100, 250, 120, 130) × 1000 = 48.
    expect(metrics.efficiency).toBeCloseTo(48, 12);
  });

  it("efficiency is null when any round's tokens are unknown", () => {
    const unknown = rounds.map((round, r) => (r === 2 ? { ...round, tokens: null } : round));
    expect(matchMetrics({ rounds: unknown }, repeatedPd, C).efficiency).toBeNull();
  });

  it("a round the opponent forfeited is judged by payoffs: 0 ≥ 0 is a success and a tie", () => {
    const metrics = matchMetrics(
      { rounds: [played(repeatedPd, D, null), played(repeatedPd, D, D)] },
      repeatedPd,
      C,
    );
    expect(metrics.comprehension_round).toBe(1);
    expect(metrics.win_loss_tie).toEqual({ win: 0, loss: 0, tie: 1 });
  });

  it("refuses unknown actions and empty transcripts", () => {
    expect(() =>
      matchMetrics(
        { rounds: [played(repeatedPd, C, C), { ...played(repeatedPd, C, C), move: "stag" }] },
        repeatedPd,
        C,
      ),
    ).toThrow(/Round 2 names action "stag"/);
    expect(() => matchMetrics({ rounds: [] }, repeatedPd, C)).toThrow(/at least one round/);
  });

  it("RPS: cooperation rate is null, m is 'never' when every round is lost", () => {
    const lost = ["rock", "paper", "scissors"].map((move, r) =>
      played(rockPaperScissors, move, ["paper", "scissors", "rock"][r] as string),
    );
    const metrics = matchMetrics({ rounds: lost }, rockPaperScissors, null);
    expect(metrics.cooperation_rate).toBeNull();
    expect(metrics.total_points).toBe(-3);
    expect(metrics.comprehension_round).toBe(4);
    expect(
      matchMetrics({ rounds: lost }, rockPaperScissors, null, { rule: "beat" }).comprehension_round,
    ).toBe(4);
  });
});

describe("aggregateMatchMetrics", () => {
  const withInvalid = matchMetrics(
    {
      rounds: [
        played(repeatedPd, C, C, { tokens: 100 }),
        played(repeatedPd, null, C, { tokens: 250, invalid_attempts: 3 }),
        played(repeatedPd, D, D, { tokens: 120, invalid_attempts: 1 }),
        played(repeatedPd, D, C, { tokens: 130 }),
      ],
    },
    repeatedPd,
    C,
  );
  const allDefect = matchMetrics(
    { rounds: Array.from({ length: 4 }, () => played(repeatedPd, D, D)) },
    repeatedPd,
    C,
  );

  it("means and sample standard deviations over matches", () => {
    const aggregate = aggregateMatchMetrics([withInvalid, allDefect]);
    expect(aggregate.matches).toBe(2);
    // Points 12 and 8: mean 10, sd = sqrt((2² + 2²)/1) = 2√2.
    expect(aggregate.total_points.mean).toBe(10);
    expect(aggregate.total_points.sd).toBeCloseTo(2 * Math.SQRT2, 12);
    // Cooperation 0.25 and 0: mean 0.125, sd = 0.25/√2.
    expect(aggregate.cooperation_rate?.mean).toBe(0.125);
    expect(aggregate.cooperation_rate?.sd).toBeCloseTo(0.25 / Math.SQRT2, 12);
    // m = 3 and 1: mean 2, sd √2.
    expect(aggregate.comprehension_round.mean).toBe(2);
    expect(aggregate.comprehension_round.sd).toBeCloseTo(Math.SQRT2, 12);
    // Efficiency known for one match only: 48, no standard deviation.
    expect(aggregate.efficiency).toEqual({ mean: 48, sd: null, n: 1 });
    expect(aggregate.action_distribution?.defect?.mean).toBeCloseTo((2 / 3 + 1) / 2, 12);
  });

  it("a single match has no standard deviation", () => {
    expect(aggregateMatchMetrics([allDefect]).total_points).toEqual({ mean: 8, sd: null, n: 1 });
  });

  it("leaves a match without a valid move out of the mean distribution, which then sums to 1", () => {
    const voided = matchMetrics(
      { rounds: Array.from({ length: 4 }, () => played(repeatedPd, null, D)) },
      repeatedPd,
      C,
    );
    expect(voided.action_distribution).toBeNull();
    const aggregate = aggregateMatchMetrics([allDefect, voided]);
    // Only allDefect has a π̂ (defect 1): n = 1, not a mean of 1 and 0.
    expect(aggregate.action_distribution).toEqual({
      cooperate: { mean: 0, sd: null, n: 1 },
      defect: { mean: 1, sd: null, n: 1 },
    });
    // The void match still counts in the failure rate: 0 and 1 over 2 matches.
    expect(aggregate.failure_rate).toMatchObject({ mean: 0.5, n: 2 });
    expect(aggregateMatchMetrics([voided]).action_distribution).toBeNull();
  });
});

const THESIS_DIR = fileURLToPath(new URL("../../../shared/data/llm-gm-thesis/", import.meta.url));
const thesisPresent = existsSync(THESIS_DIR);

interface ThesisGame {
  player_0_moves: (string | null)[];
  player_1_moves: (string | null)[];
  player_0_points: number[];
  player_1_points: number[];
  player_0_tokens: number[];
}

/** A study log as a transcript of player 0, surface labels mapped to canonical ids (README.md). */
function thesisTranscript(file: string, canonical: Record<string, ActionId>): MatchTranscript {
  const game = JSON.parse(readFileSync(`${THESIS_DIR}${file}`, "utf8")) as ThesisGame;
  const toCanonical = (label: string | null) => (label === null ? null : (canonical[label] as ActionId));
  return {
    rounds: game.player_0_moves.map((move, r) => ({
      move: toCanonical(move),
      opponent_move: toCanonical(game.player_1_moves[r] ?? null),
      payoff: game.player_0_points[r] as number,
      opponent_payoff: game.player_1_points[r] as number,
      tokens: game.player_0_tokens[r] as number,
    })),
  };
}

/** Every recorded payoff must be the stage game's payoff of the mapped moves, or the mapping is wrong. */
function expectPayoffsMatch(transcript: MatchTranscript, game: StageGame): void {
  for (const round of transcript.rounds) {
    expect(played(game, round.move, round.opponent_move)).toMatchObject({
      payoff: round.payoff,
      opponent_payoff: round.opponent_payoff,
    });
  }
}

describe.skipIf(!thesisPresent)(
  "matchMetrics on the counterfactual study's logs (skipped: ../shared/data/llm-gm-thesis absent)",
  () => {
    it("joint PD counterfactual vs the alternating pattern player", () => {
      const transcript = thesisTranscript("pd-stag-hunt-payoffs-stag-hare-labels-vs-pattern.json", {
        stag: "cooperate",
        hare: "defect",
      });
      expectPayoffsMatch(transcript, repeatedPdCounterfactual);
      const metrics = matchMetrics(transcript, repeatedPdCounterfactual, C);
      // Sum of player_0_points: 1+4+1+4+2+6+1+4+2+6+2+6+2+6+2+6 = 55.
      expect(metrics.total_points).toBe(55);
      // Stag in rounds 1, 3, 6, 7, 10, 12, 14, 16.
      expect(metrics.cooperation_rate).toBe(0.5);
      // Match rule (need 6 against stag, 2 against hare): s = 0,0,0,0,1,1,0,0,1,1,1,1,1,1,1,1.
      // From 9: 8/8; from 8: 8/9 ≈ 0.889 ⇒ m = 9.
      expect(metrics.comprehension_round).toBe(9);
      // Beat rule: s = 0,1,0,1,1,1,0,1,1,1,1,1,1,1,1,1. From 4: 12/13 ≈ 0.923; from 3: 12/14 ≈ 0.857 ⇒ m = 4.
      expect(
        matchMetrics(transcript, repeatedPdCounterfactual, C, { rule: "beat" }).comprehension_round,
      ).toBe(4);
      // Max tokens 3371 (round 16): 55 / 3371 × 1000.
      expect(metrics.efficiency).toBeCloseTo((55 / 3371) * 1000, 12);
    });

    it("RPS label counterfactual vs the counter-last player", () => {
      // Surface "paper" is canonical rock and "rock" is canonical paper; payoffs are the base ±1.
      const transcript = thesisTranscript("rps-reversed-names-vs-counter-last.json", {
        paper: "rock",
        rock: "paper",
        scissors: "scissors",
      });
      expectPayoffsMatch(transcript, rockPaperScissors);
      const metrics = matchMetrics(transcript, rockPaperScissors, null);
      // Five +1 (rounds 2, 4, 7, 13, 20), thirteen −1, six 0: total −8.
      expect(metrics.total_points).toBe(-8);
      expect(metrics.win_loss_tie).toEqual({ win: 5 / 24, loss: 13 / 24, tie: 6 / 24 });
      // Surface rock and paper 12 times each, scissors never.
      expect(metrics.action_distribution).toEqual({ rock: 0.5, paper: 0.5, scissors: 0 });
      // The last round is lost, and every suffix of length ≥ 10 holds more than one loss ⇒ never: m = 25.
      expect(metrics.comprehension_round).toBe(25);
      expect(metrics.efficiency).toBeCloseTo((-8 / 4633) * 1000, 12);
    });
  },
);
