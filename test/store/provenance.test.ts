import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import type { RoundView as View } from "../../src/play/match-view.js";
import { call, connectClient, tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const VERSION = (JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string })
  .version;

describeEachEngine("provenance", (engine) => {
  let deps: ReturnType<typeof tempDeps>;
  let client: Client;
  beforeEach(async () => {
    deps = tempDeps(engine);
    client = await connectClient(deps, { clientName: "provenance" });
  });
  afterEach(async () => {
    await client.close();
    deps.dispose();
  });

  interface Transcript {
    rounds: {
      round: number;
      provenance: { prompt_hash: string; server_version: string; catalog_fingerprint: string };
    }[];
  }

  describe("provenance on every decision", () => {
    it("keeps the exact prompt of each round once by hash, with server version and catalog fingerprint", async () => {
      const first = await call<View>(client, "start_match", {
        game: "repeated-pd",
        opponent: "tit-for-tat",
        seed: 5,
      });
      const move1 = await call<{ next: View }>(client, "submit_move", {
        match_id: first.match_id,
        round: 1,
        choice: first.labels[0] as string,
      });
      await call(client, "submit_move", {
        match_id: first.match_id,
        round: 2,
        choice: first.labels[0] as string,
      });
      const transcript = await call<Transcript>(client, "get_match", { match_id: first.match_id });
      // Round 1 answered the prompt start_match showed; round 2 the one submit_move returned as `next`.
      expect(transcript.rounds.map((r) => r.provenance)).toEqual([
        {
          prompt_hash: sha256(first.prompt),
          server_version: VERSION,
          catalog_fingerprint: deps.catalog.fingerprint,
        },
        {
          prompt_hash: sha256(move1.next.prompt),
          server_version: VERSION,
          catalog_fingerprint: deps.catalog.fingerprint,
        },
      ]);
      expect(deps.catalog.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      // The operator's resource carries the text itself.
      const read = await client.readResource({ uri: `same-game://matches/${first.match_id}` });
      const record = JSON.parse((read.contents[0] as { text: string }).text) as {
        match: { style: string; action_order: string[] };
        rounds: { prompt: string; prompt_hash: string }[];
      };
      expect(record.rounds.map((r) => r.prompt)).toEqual([first.prompt, move1.next.prompt]);
      expect(record.match.action_order).toHaveLength(2);
      expect(typeof record.match.style).toBe("string");
    });

    it("stores a prompt text shown in several matches only once", async () => {
      // Same seed, game and framing: the same action order and style, hence the same one-shot prompt.
      const args = { game: "prisoners-dilemma", framing: "business", opponent: "always-defect", seed: 11 };
      const a = await call<View>(client, "start_match", args);
      const b = await call<View>(client, "start_match", args);
      expect(a.prompt).toBe(b.prompt);
      for (const view of [a, b]) {
        await call(client, "submit_move", {
          match_id: view.match_id,
          round: 1,
          choice: view.labels[1] as string,
        });
      }
      const prompts = deps.store.engine.prepare("SELECT hash, text FROM prompts ORDER BY hash").all();
      expect(prompts).toEqual([{ hash: sha256(a.prompt), text: a.prompt }]);
      expect(deps.store.getDecision(b.match_id, 1)?.prompt_hash).toBe(sha256(a.prompt));
    });
  });
});
