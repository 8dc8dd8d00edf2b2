import { describe, expect, it } from "vitest";
import type { RoundView as View } from "../../src/play/match-view.js";
import { call, callError, useConnectedClient } from "../support/harness.js";

// The order in which a match lists its choices is counterbalanced (SPEC §3). A refused reply used to list
// them in the catalog's order instead ("Rock", "Paper" or "Scissors" for every match), so every agent that
// answered unclearly was shown one fixed order on its second try.

const held = useConnectedClient();

describe("a refused reply", () => {
  it("lists the valid labels in the order the match's prompt showed them", async () => {
    // Seed 2 shows rock-paper-scissors as Rock, Scissors, Paper: not the catalog's rock, paper, scissors.
    const match = await call<View>(held.client, "start_match", { game: "rock-paper-scissors", seed: 2 });
    expect(match.labels).toEqual(["Rock", "Scissors", "Paper"]);
    expect(match.prompt).toContain("Answer with exactly one of: Rock, Scissors or Paper.");

    const refused = await callError(held.client, "submit_move", {
      match_id: match.match_id,
      round: 1,
      choice: "hmm",
    });
    expect(refused).toBe(
      'Your reply names none of the choices; answer with exactly one of "Rock", "Scissors" or "Paper". This was invalid reply 1 of 5 for round 1; after 5 the round is void and scores 0.',
    );
    // The reason recorded with the attempt is the same sentence.
    expect(held.deps.store.listAttempts(match.match_id, 1).map((a) => a.invalid_reason)).toEqual([
      'Your reply names none of the choices; answer with exactly one of "Rock", "Scissors" or "Paper".',
    ]);

    // The reading itself does not depend on the order: "scissors" is still Scissors.
    const moved = await call<{ your_choice: string }>(held.client, "submit_move", {
      match_id: match.match_id,
      round: 1,
      choice: "scissors",
    });
    expect(moved.your_choice).toBe("Scissors");
  });
});
