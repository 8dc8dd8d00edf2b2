import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, requireBuiltCli, runCli } from "../support/built-cli.js";
import { INSPECTION } from "../support/inspection-game.js";

// A user game added through --catalog is played, certified and analysed without
// touching the package. An inspection game (asymmetric: the column player's payoffs differ) in a folder.

let dir: string;
let catalogDir: string;
let db: string;

beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-user-catalog-"));
  catalogDir = join(dir, "my-games");
  mkdirSync(catalogDir);
  writeFileSync(join(catalogDir, "inspection.json"), JSON.stringify(INSPECTION));
  db = join(dir, "record.db");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Structured = Record<string, unknown>;
async function call<T = Structured>(client: Client, name: string, args: Structured): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent as T;
}

describe("a user's own game through --catalog", () => {
  it("computes its equilibria: the mixed one of the inspection game, from both seats' payoffs", () => {
    const run = runCli(["analyze", "equilibria", "--game", "inspection", "--catalog", catalogDir, "--json"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as {
      equilibria: { row: Structured; column: Structured; kind: string }[];
    };
    // No pure equilibrium. Column indifferent: 2 = 4(1 − x) ⇒ row audits x = ½.
    // Row indifferent: y + 3(1 − y) = 2y ⇒ column audits y = ¾.
    expect(out.equilibria).toHaveLength(1);
    expect(out.equilibria[0]?.row.audit).toBeCloseTo(0.5, 9);
    expect(out.equilibria[0]?.column.audit).toBeCloseTo(0.75, 9);
    // SAME_GAME_CATALOG does the same.
    const byEnv = runCli(["analyze", "equilibria", "--game", "inspection", "--json"], {
      SAME_GAME_CATALOG: catalogDir,
    });
    expect(byEnv.status).toBe(0);
  });

  it("is certified under every framing that fits its shape, played over stdio and analysed", async () => {
    const client = new Client({ name: "user-catalog-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", "--db", db, "--player", "tester", "--catalog", catalogDir, "--toolsets", "all"],
        stderr: "ignore",
      }),
    );
    try {
      const games = await call<{ games: { id: string; variants: { id: string; framings: string[] }[] }[] }>(
        client,
        "list_games",
        {},
      );
      const inspection = games.games.find((g) => g.id === "inspection");
      expect(inspection?.variants[0]?.framings).toEqual([
        "abstract-matrix",
        "abstract-matrix+familiar",
        "abstract-matrix+neutral",
        "neutral-narrative",
        "neutral-narrative+familiar",
        "neutral-narrative+neutral",
      ]);
      // The agent audits under the abstract X/Y wording and skips under the familiar "Audit"/"Skip".
      for (const [framing, pick] of [
        ["abstract-matrix", 0],
        ["abstract-matrix+familiar", 1],
      ] as const) {
        for (let seed = 1; seed <= 6; seed++) {
          const view = await call<{ match_id: string; labels: string[]; prompt: string }>(
            client,
            "start_match",
            {
              game: "inspection",
              framing,
              opponent: "random",
              seed,
            },
          );
          // The other player's amounts are the column player's own: (audit, skip) pays it
          // column_payoffs.skip.audit = 0, not u1(skip, audit) = 2 as a symmetric reading would.
          expect(view.prompt).not.toMatch(/inspection/i);
          const audit = framing === "abstract-matrix" ? "X" : "Audit";
          const skip = framing === "abstract-matrix" ? "Y" : "Skip";
          expect(view.prompt).toContain(`| ${audit} | ${skip} | 3 points | 0 points |`);
          await call(client, "submit_move", {
            match_id: view.match_id,
            round: 1,
            choice: pick === 0 ? audit : skip,
          });
        }
      }
    } finally {
      await client.close();
    }
    const run = runCli([
      "analyze",
      "story-labels",
      "--db",
      db,
      "--catalog",
      catalogDir,
      "--games",
      "inspection",
      "--stories",
      "abstract-matrix",
      "--bootstrap",
      "500",
      "--json",
    ]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as {
      units: { focal_action: string; label_effects: { main: { estimate: number } }[]; verdict: string }[];
    };
    // P(audit): 6/6 under X/Y, 0/6 under Audit/Skip: the words moved it by −1.
    expect(report.units[0]?.focal_action).toBe("audit");
    expect(report.units[0]?.label_effects[0]?.main.estimate).toBe(-1);
    expect(report.units[0]?.verdict).toBe("labels");
  }, 60_000);

  it("refuses a broken user catalog with exit 2 and one sentence naming the file or the framing", () => {
    const broken = join(dir, "broken");
    mkdirSync(join(broken, "framings"), { recursive: true });
    writeFileSync(join(broken, "inspection.json"), JSON.stringify({ ...INSPECTION, payoffs: { audit: {} } }));
    const run = runCli(["analyze", "equilibria", "--game", "inspection", "--catalog", broken]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      "same-game: user catalog/inspection.json: payoffs.audit.audit: expected number, found no payoff\n",
    );

    // A framing of the user's own that gives the agent's amount to the other player.
    const lying = join(dir, "lying");
    mkdirSync(join(lying, "framings"), { recursive: true });
    writeFileSync(join(lying, "inspection.json"), JSON.stringify(INSPECTION));
    writeFileSync(
      join(lying, "framings", "audit-office.json"),
      JSON.stringify({
        id: "audit-office",
        applies_to: { actions: ["audit", "skip"], label_set: "familiar", play: "one-shot" },
        labels: { audit: "Open the books", skip: "Wave it through" },
        parties: { self: ["you"], other: ["the firm"] },
        units: { one: "{n} point", other: "{n} points" },
        story: [
          "You inspect a firm's accounts this quarter; the firm decides at the same time whether to comply.",
        ],
        payoffs: {
          intro: "What each side gets:",
          sentence:
            "If you {own_label} and the firm chooses {other_label}, the firm gets {own_amount} and you get {other_amount}.",
        },
        question: "What do you do?",
      }),
    );
    // Every verb that loads the catalog certifies its framings first and refuses the catalog, the game
    // theory of `analyze equilibria` included: no verb half-uses a catalog that serve refuses.
    for (const verb of [
      ["analyze", "robustness", "--db", db],
      ["analyze", "equilibria", "--game", "inspection"],
    ]) {
      const lie = runCli([...verb, "--catalog", lying]);
      expect(lie.status).toBe(2);
      expect(lie.stderr).toBe(
        'same-game: framing "audit-office" for game "inspection" (variant base): in the payoff sentences, profile (agent audit, other audit) gives the agent 2 but the game pays the agent 1.\n',
      );
    }
  });

  it('certifies a game with action ids a, b, c under the shipped framings whose prose says "a" and "A"', async () => {
    const letters = join(dir, "letters");
    mkdirSync(letters);
    writeFileSync(
      join(letters, "three-doors.json"),
      JSON.stringify({
        id: "three-doors",
        title: "Three doors",
        actions: ["a", "b", "c"],
        cooperative_action: null,
        rounds: 1,
        // Coordination on the same door: 2 each, else 0.
        payoffs: { a: { a: 2, b: 0, c: 0 }, b: { a: 0, b: 2, c: 0 }, c: { a: 0, b: 0, c: 2 } },
        variants: { base: { labels: "familiar" } },
      }),
    );
    const run = runCli(["analyze", "equilibria", "--game", "three-doors", "--catalog", letters, "--json"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    // 3 pure (same door), 3 mixed over a pair, 1 mixed over all three.
    expect(JSON.parse(run.stdout).equilibria).toHaveLength(7);

    const client = new Client({ name: "user-catalog-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "serve", "--db", join(dir, "letters.db"), "--catalog", letters, "--toolsets", "all"],
        stderr: "ignore",
      }),
    );
    try {
      const games = await call<{ games: { id: string; variants: { framings: string[] }[] }[] }>(
        client,
        "list_games",
        {},
      );
      // neutral-narrative's story says "presses a button": its familiar presentation labels A, B, C.
      expect(games.games.find((g) => g.id === "three-doors")?.variants[0]?.framings).toContain(
        "neutral-narrative+familiar",
      );
      const view = await call<{ labels: string[] }>(client, "start_match", {
        game: "three-doors",
        framing: "neutral-narrative+familiar",
        seed: 1,
      });
      expect([...view.labels].sort()).toEqual(["A", "B", "C"]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
