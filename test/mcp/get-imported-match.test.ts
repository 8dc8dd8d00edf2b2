import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { packageRoot } from "../../src/package-root.js";
import { call, callError, useConnectedClient } from "../support/harness.js";

// list_matches lists imported transcripts, so get_match must open them: read-only, in the game's own action
// ids (the framing of play elsewhere is a label whose words the record does not hold).

const held = useConnectedClient();

interface Transcript {
  status: string;
  labels: string[];
  rounds: {
    round: number;
    your_choice: string | null;
    opponent_choice: string | null;
    your_points: number;
  }[];
  total_points: number;
}

describe("get_match on an imported transcript", () => {
  it("shows every round in action ids, and submit_move still refuses to play it", async () => {
    const text = readFileSync(join(packageRoot(), "test", "fixtures", "imported-matches.jsonl"), "utf8");
    importMatches(held.deps, parseMatchesJsonl(text, "imported-matches.jsonl", held.deps.catalog), "hand");
    const listed = await call<{ matches: { match_id: string }[] }>(held.client, "list_matches", {});
    expect(listed.matches).toHaveLength(2);
    const transcripts = await Promise.all(
      listed.matches.map((m) => call<Transcript>(held.client, "get_match", { match_id: m.match_id })),
    );
    // The fixture's first transcript: round 1 void, then cooperation, 57 points in all; the second always
    // defects, 36 points.
    const first = transcripts.find((t) => t.total_points === 57);
    expect(first?.status).toBe("finished");
    expect(first?.labels).toEqual(["cooperate", "defect"]);
    expect(first?.rounds).toHaveLength(16);
    expect(first?.rounds.slice(0, 2)).toMatchObject([
      { round: 1, your_choice: null, opponent_choice: "cooperate", your_points: 0 },
      { round: 2, your_choice: "cooperate", opponent_choice: "defect", your_points: 1 },
    ]);
    expect(transcripts.map((t) => t.total_points).sort()).toEqual([36, 57]);

    const refused = await callError(held.client, "submit_move", {
      match_id: listed.matches[0]?.match_id,
      round: 1,
      choice: "cooperate",
    });
    expect(refused).toContain("was imported from hand; it cannot be played.");
  });
});
