import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { analyzeCommand } from "../../src/cli/analyze.js";
import { parseCommandArgs } from "../../src/cli/command.js";
import { importMatches, parseMatchesJsonl } from "../../src/imports/matches-jsonl.js";
import { packageRoot } from "../../src/package-root.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
let client: Client;

beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps);
  const text = readFileSync(join(packageRoot(), "test", "fixtures", "imported-matches.jsonl"), "utf8");
  importMatches(deps, parseMatchesJsonl(text, "imported-matches.jsonl", deps.catalog), "hand");
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

/** Runs the command in this process and returns what it wrote on stdout. */
async function analyze(argv: string[]): Promise<string> {
  const chunks: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string) => {
    chunks.push(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    await analyzeCommand.run(parseCommandArgs(analyzeCommand, ["repeated", ...argv]));
  } finally {
    process.stdout.write = write;
  }
  return chunks.join("");
}

describe("analyze repeated", () => {
  it("prints with --json the object repeated_metrics returns, with the same options", async () => {
    const args = { players: ["model-x"], rule: "beat", threshold: 0.8 };
    const tool = await call(client, "repeated_metrics", args);
    const printed = JSON.parse(
      await analyze([
        "--db",
        deps.dbPath,
        "--players",
        "model-x",
        "--rule",
        "beat",
        "--threshold",
        "0.8",
        "--json",
      ]),
    );
    expect(printed).toEqual(tool);
    // Rule "beat" (x_r ≥ y_r) on match A: r1 invalid F, r2 1 < 6 F, then ties T ⇒ from 2: 14/15 ≥ 0.8,
    // from 1: 14/16 = 0.875 ≥ 0.8 ⇒ m = 1 at t = 0.8.
    expect(printed.matches[0]).toMatchObject({ comprehension_round: 1, comprehension_rule: "beat" });
  });

  it("prints a readable line per cell, and refuses bad options with one sentence", async () => {
    const table = await analyze(["--db", deps.dbPath]);
    expect(table).toContain(
      "model-x | repeated-pd/base | their-prompt | vs tft-elsewhere | n=2 | points 46.5 ± 14.8",
    );
    // A player the record does not hold is named, not answered as an empty table.
    await expect(analyze(["--db", deps.dbPath, "--players", "nobody"])).rejects.toThrow(
      "--players names nobody, who played nothing in the record; players of the record: model-x.",
    );
    await expect(analyze(["--db", deps.dbPath, "--rule", "win"])).rejects.toThrow(
      '--rule must be match or beat, got "win".',
    );
    await expect(analyze(["--db", deps.dbPath, "--threshold", "1.5"])).rejects.toThrow(/--threshold must be/);
    await expect(analyze(["--db", deps.dbPath, "--threshold", "0"])).rejects.toThrow(
      /--threshold must be a number above 0 and at most 1/,
    );
    await expect(analyze(["--db", deps.dbPath, "--games", "snowdrift"])).rejects.toThrow(
      /"snowdrift" is not a repeated game; repeated games: .*repeated-pd/,
    );
    expect(await callError(client, "repeated_metrics", { variants: ["other"] })).toMatch(
      /Unknown variant "other"; valid variants: base, label, payoff, joint/,
    );
  });
});
