import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { matchMetrics } from "../../src/analysis/repeated/repeated-metrics.js";
import type { RoundView as View } from "../../src/play/match-view.js";
import type { MoveResult as Moved } from "../../src/play/submit-move.js";
import { storedTranscripts } from "../../src/queries/repeated-metrics-query.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
let client: Client;

beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { clientName: "repeated-play" });
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

const C = "Cooperate";
const D = "Defect";

describe("a full 16-round repeated-pd against tit-for-tat", () => {
  // Our scripted moves; tit-for-tat opens with C and then copies our previous move.
  const ours = [C, C, D, D, C, D, C, C, C, C, D, C, C, C, C, D];
  const theirs = [C, C, C, D, D, C, D, C, C, C, C, D, C, C, C, C];
  // Stage payoffs (C,C)=4,4 (C,D)=1,6 (D,C)=6,1 (D,D)=2,2, round by round:
  const ourPoints = [4, 4, 6, 2, 1, 6, 1, 4, 4, 4, 6, 1, 4, 4, 4, 6];
  const theirPoints = [4, 4, 1, 2, 6, 1, 6, 4, 4, 4, 1, 6, 4, 4, 4, 1];
  // Σ ours = 4+4+6+2+1+6+1+4+4+4+6+1+4+4+4+6 = 61; Σ theirs = 4+4+1+2+6+1+6+4+4+4+1+6+4+4+4+1 = 56.

  it("decides every round as tit-for-tat dictates, records the totals and shows the full history", async () => {
    const start = await call<View>(client, "start_match", {
      game: "repeated-pd",
      framing: "repeated-plain+familiar",
      opponent: "tit-for-tat",
      seed: 11,
      history_mode: "full",
    });
    // The horizon is hidden by default: no round count in the view or the prompt.
    expect(start.rounds).toBeNull();
    expect(start.prompt).toContain("you are not told how many");
    expect(start.prompt).not.toContain("16");
    let view = start;
    for (const [r, choice] of ours.entries()) {
      expect(view.round).toBe(r + 1);
      if (r === 1) {
        // One unreadable reply in round 2: refused, recorded as an invalid attempt, answered again.
        expect(
          await callError(client, "submit_move", { match_id: view.match_id, round: 2, choice: "?" }),
        ).toMatch(/invalid reply 1 of 5/);
      }
      const moved = await call<Moved>(client, "submit_move", {
        match_id: view.match_id,
        round: r + 1,
        choice,
        tokens: 100 * (r + 1),
      });
      expect(moved).toMatchObject({
        status: "decided",
        your_choice: choice,
        opponent_choice: theirs[r],
        your_points: ourPoints[r],
        opponent_points: theirPoints[r],
      });
      if (r === 2) {
        // Round 3's history block (full): both earlier rounds, in the framing's words.
        expect(view.prompt).toContain(
          "Results so far:\nRound 1: you picked Cooperate, your opponent picked Cooperate, and you scored 4 points.\nRound 2: you picked Cooperate, your opponent picked Cooperate, and you scored 4 points.",
        );
      }
      if (r < 15) view = moved.next as View;
      else expect(moved).toMatchObject({ finished: true, total_points: 61, next: null });
    }
    const decisions = deps.store.listDecisions(start.match_id);
    expect(decisions.map((d) => d.payoff).reduce((a, b) => (a ?? 0) + (b ?? 0), 0)).toBe(61);
    expect(decisions.map((d) => d.opponent_payoff).reduce((a, b) => (a ?? 0) + (b ?? 0), 0)).toBe(56);
    expect(decisions.map((d) => d.action)).toEqual(ours.map((m) => m.toLowerCase()));

    // Comprehension (rule "match", t = 0.9): s_r = [x_r ≥ u1(o_r, o_r)], u1(C,C) = 4, u1(D,D) = 2.
    // Failures: r5 (1 < 2), r7 (1 < 2), r12 (1 < 2). Suffix shares: from 13: 4/4 = 1; from 12: 4/5;
    // from 8: 8/9 ≈ 0.889 < 0.9; from 1: 13/16 ⇒ m = 13.
    const [stored] = storedTranscripts(deps, {});
    expect(stored?.match.id).toBe(start.match_id);
    const metrics = matchMetrics(
      stored?.transcript ?? { rounds: [] },
      deps.catalog.stageGame("repeated-pd", "base"),
      "cooperate",
    );
    expect(metrics).toMatchObject({
      total_points: 61,
      comprehension_round: 13,
      // C in 11 of 16 rounds.
      cooperation_rate: 11 / 16,
      invalid_attempts: 1,
      failure_rate: 0,
      // round 16 spent 1600 tokens, the most: 61 / 1600 × 1000 = 38.125.
      efficiency: 38.125,
    });
  });

  it("shows no history, or only the last round, as the history mode says, and reveals the horizon when asked", async () => {
    const playTwo = async (history_mode: string, reveal_horizon: boolean) => {
      const start = await call<View>(client, "start_match", {
        game: "repeated-pd",
        framing: "repeated-plain+familiar",
        opponent: "always-defect",
        seed: 5,
        history_mode,
        reveal_horizon,
      });
      await call(client, "submit_move", { match_id: start.match_id, round: 1, choice: C });
      const second = await call<Moved>(client, "submit_move", {
        match_id: start.match_id,
        round: 2,
        choice: D,
      });
      return { start, third: second.next as View };
    };
    const none = await playTwo("none", false);
    expect(none.third.round).toBe(3);
    expect(none.third.prompt).not.toMatch(/Round \d:|Results so far|previous round/);
    expect(none.third.prompt).toContain("This is round 3.");

    const last = await playTwo("last", true);
    expect(last.start.rounds).toBe(16);
    expect(last.start.prompt).toContain("You will play 16 rounds against the same opponent.");
    // Only round 2 (D against always-defect: (D,D) = 2).
    expect(last.third.prompt).toContain(
      "Result of the previous round:\nRound 2: you picked Defect, your opponent picked Defect, and you scored 2 points.",
    );
    expect(last.third.prompt).not.toContain("Round 1:");
  });
});

describe("a full 24-round rock-paper-scissors under swapped names", () => {
  it("records canonical actions behind the misleading names, the totals and the comprehension round", async () => {
    // rps-swapped shows canonical rock as "Paper" and paper as "Rock"; the payoffs stay the base game's
    // (rock beats scissors, paper beats rock, scissors beats paper). The pattern cycles rock, paper, scissors.
    const start = await call<View>(client, "start_match", {
      game: "rock-paper-scissors",
      variant: "label",
      framing: "rps-swapped",
      opponent: "pattern",
      opponent_params: { cycle: ["rock", "paper", "scissors"] },
      seed: 3,
    });
    const surface: Record<string, string> = { rock: "Paper", paper: "Rock", scissors: "Scissors" };
    const beats: Record<string, string> = { rock: "paper", paper: "scissors", scissors: "rock" };
    const cycle = ["rock", "paper", "scissors"];
    // Rounds 1–6 by hand against rock, paper, scissors, rock, paper, scissors: tie 0, loss −1, loss −1,
    // loss −1, tie 0, win +1; from round 7 on we play what beats the cycle: 18 wins.
    const firstSix = ["rock", "rock", "paper", "scissors", "paper", "rock"];
    const sixPoints = [0, -1, -1, -1, 0, 1];
    let view = start;
    for (let r = 1; r <= 24; r++) {
      const theirs = cycle[(r - 1) % 3] as string;
      const ours = r <= 6 ? (firstSix[r - 1] as string) : (beats[theirs] as string);
      const moved = await call<Moved>(client, "submit_move", {
        match_id: view.match_id,
        round: r,
        choice: surface[ours],
      });
      expect(moved.your_choice).toBe(surface[ours]);
      expect(moved.opponent_choice).toBe(surface[theirs]);
      expect(moved.your_points).toBe(r <= 6 ? sixPoints[r - 1] : 1);
      if (r < 24) view = moved.next as View;
      // Total: 0 − 1 − 1 − 1 + 0 + 1 + 18 × 1 = 16.
      else expect(moved).toMatchObject({ finished: true, total_points: 16 });
    }
    // Round 1: we answered "Paper"; the record holds canonical rock (a tie against the pattern's rock).
    expect(deps.store.getDecision(start.match_id, 1)).toMatchObject({
      raw_text: "Paper",
      action: "rock",
      opponent_action: "rock",
      payoff: 0,
    });
    // "match" rule in RPS = did not lose. Losses in rounds 2, 3, 4 only. From 3: 20/22 ≈ 0.909 ≥ 0.9;
    // from 2: 20/23 ≈ 0.870; from 1: 21/24 = 0.875 ⇒ m = 3.
    const [stored] = storedTranscripts(deps, {});
    const metrics = matchMetrics(
      stored?.transcript ?? { rounds: [] },
      deps.catalog.stageGame("rock-paper-scissors", "label"),
      null,
    );
    expect(metrics).toMatchObject({
      total_points: 16,
      comprehension_round: 3,
      cooperation_rate: null,
      // 19 wins, 3 losses, 2 ties of 24.
      win_loss_tie: { win: 19 / 24, loss: 3 / 24, tie: 2 / 24 },
      efficiency: null,
    });
  });
});
