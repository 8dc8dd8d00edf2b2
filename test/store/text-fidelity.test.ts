import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RoundView as View } from "../../src/play/match-view.js";
import { printable, table } from "../../src/queries/format.js";
import { robustnessReport } from "../../src/queries/robustness-query.js";
import { robustnessText } from "../../src/queries/robustness-text.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

// Replies and labels are stored exactly as received; text that cannot be stored exactly (a lone UTF-16
// surrogate) is refused with a clear error, and control characters never reach a terminal raw.

describeEachEngine("text fidelity", (engine) => {
  let deps: ReturnType<typeof tempDeps>;
  let client: Client;
  beforeEach(async () => {
    deps = tempDeps(engine);
    client = await connectClient(deps, { clientName: "fidelity" });
  });
  afterEach(async () => {
    await client.close();
    deps.dispose();
  });

  const start = (player: string, framing = "business") =>
    call<View>(client, "start_match", {
      game: "prisoners-dilemma",
      framing,
      opponent: "always-defect",
      player,
    });

  describe("text enters the record exactly, or not at all", () => {
    it("refuses a reply with a lone surrogate, naming it, and records nothing for the round", async () => {
      const view = await start("fidelity-agent");
      const label = view.labels[0] as string;
      const message = await callError(client, "submit_move", {
        match_id: view.match_id,
        round: 1,
        choice: `${label} \uD83D`,
      });
      expect(message).toMatch(/reply \(choice\) contains a lone surrogate \(U\+D83D at position \d+\)/);
      expect(deps.store.listAttempts(view.match_id, 1)).toEqual([]);
      // PostgreSQL cannot store U+0000: refused on both engines alike, nothing recorded.
      const nul = await callError(client, "submit_move", {
        match_id: view.match_id,
        round: 1,
        choice: `${label}\u0000`,
      });
      expect(nul).toMatch(/reply \(choice\) contains a NUL character \(U\+0000 at position \d+\)/);
      expect(deps.store.listAttempts(view.match_id, 1)).toEqual([]);
      // A well-formed emoji (a surrogate pair) is kept byte for byte, and the round is still open.
      const reply = `${label} 😀`;
      await call(client, "submit_move", { match_id: view.match_id, round: 1, choice: reply });
      expect(deps.store.getDecision(view.match_id, 1)?.raw_text).toBe(reply);
    });

    it("refuses a lone surrogate in a rationale and in a player label", async () => {
      const view = await start("fidelity-agent");
      const label = view.labels[0] as string;
      expect(
        await callError(client, "submit_move", {
          match_id: view.match_id,
          round: 1,
          choice: label,
          rationale: "\uDC00 why",
        }),
      ).toMatch(/rationale contains a lone surrogate \(U\+DC00 at position 0\)/);
      expect(deps.store.getDecision(view.match_id, 1)).toBeUndefined();
      expect(
        await callError(client, "start_match", { game: "prisoners-dilemma", player: "bad\uD800label" }),
      ).toMatch(/player label contains a lone surrogate \(U\+D800 at position 3\)/);
    });

    it("stores a label with an escape sequence verbatim and prints it escaped in text tables", async () => {
      const hostile = "red\u001b[31m\nagent";
      for (const framing of ["business", "friend-sharing"]) {
        const view = await start(hostile, framing);
        await call(client, "submit_move", {
          match_id: view.match_id,
          round: 1,
          choice: view.labels[0] as string,
        });
      }
      const [match] = deps.store.listMatches({});
      expect(match?.player).toBe(hostile);
      const text = robustnessText(robustnessReport(deps, { bootstrap: 100 }));
      expect(text).toContain("red\\x1b[31m\\x0aagent");
      expect(text).not.toContain("\u001b");
      expect(printable("a\u202Eb\u0007")).toBe("a\\u202eb\\x07");
      expect(table(["h"], [["x\ty"]])).toBe("h\n------\nx\\x09y");
    });
  });
});
