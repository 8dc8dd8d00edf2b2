import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { parse } from "csv-parse/sync";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { exportCommand } from "../../src/cli/export.js";
import { importCommand } from "../../src/cli/import.js";
import { DECISION_COLUMNS } from "../../src/exports/export-tables.js";
import { packageRoot } from "../../src/package-root.js";
import type { RoundView as View } from "../../src/play/match-view.js";
import { call, connectClient, tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
let client: Client;
beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { clientName: "exporter" });
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

const exportTo = async (argv: string[]) => exportCommand.run(parseCommandArgs(exportCommand, argv));
const importMatches = async (argv: string[]) =>
  importCommand.run(parseCommandArgs(importCommand, ["matches", ...argv]));

describe("same-game export", () => {
  it("writes one CSV row per decision with every provenance field, replies verbatim through quoting", async () => {
    const view = await call<View>(client, "start_match", {
      game: "prisoners-dilemma",
      framing: "business",
      opponent: "always-defect",
      player: "csv-agent",
    });
    const reply = `I choose "${view.labels[0]}",\nfinal answer`;
    await call(client, "submit_move", {
      match_id: view.match_id,
      round: 1,
      choice: reply,
      rationale: "a, b",
    });
    const out = join(deps.dir, "decisions.csv");
    await exportTo(["decisions", "--db", deps.dbPath, "--out", out]);
    const rows = parse(readFileSync(out, "utf8"), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {})).toEqual([...DECISION_COLUMNS]);
    expect(rows).toHaveLength(1);
    const row = rows[0] as Record<string, string>;
    expect(row).toMatchObject({
      match_id: view.match_id,
      round: "1",
      player: "csv-agent",
      game: "prisoners-dilemma",
      framing: "business",
      opponent: "always-defect",
      status: "decided",
      opponent_action: "defect",
      raw_text: reply,
      rationale: "a, b",
      prompt: view.prompt,
      client_name: "exporter",
      transport: "memory",
      catalog_fingerprint: deps.catalog.fingerprint,
    });
    expect(JSON.parse(row.action_order as string)).toHaveLength(2);
    expect(row.prompt_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.server_version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("round-trips matches: exporting the imported reference traces gives the shipped file byte for byte", async () => {
    await importMatches(["--reference", "llm-gm-thesis-2026", "--db", deps.dbPath]);
    const first = join(deps.dir, "matches.jsonl");
    await exportTo(["matches", "--format", "jsonl", "--db", deps.dbPath, "--out", first]);
    const shipped = readFileSync(join(packageRoot(), "data", "llm-gm-thesis", "traces.jsonl"), "utf8");
    expect(readFileSync(first, "utf8")).toBe(shipped);
    // … and importing that export into a fresh record, then exporting again, changes nothing.
    const other = tempDeps();
    try {
      other.store.close();
      await importMatches([first, "--db", other.dbPath]);
      const second = join(deps.dir, "again.jsonl");
      await exportTo(["matches", "--format", "jsonl", "--db", other.dbPath, "--out", second]);
      expect(readFileSync(second, "utf8")).toBe(shipped);
    } finally {
      other.dispose();
    }
  });

  it("round-trips a live repeated match through import, and filters by player", async () => {
    const view = await call<View>(client, "start_match", {
      game: "repeated-pd",
      opponent: "tit-for-tat",
      player: "live",
      seed: 3,
    });
    for (let round = 1; round <= 16; round++) {
      await call(client, "submit_move", {
        match_id: view.match_id,
        round,
        choice: view.labels[0] as string,
        tokens: 10,
      });
    }
    await call<View>(client, "start_match", { game: "prisoners-dilemma", player: "someone-else" });
    const out = join(deps.dir, "live.jsonl");
    await exportTo(["matches", "--format", "jsonl", "--players", "live", "--db", deps.dbPath, "--out", out]);
    const lines = readFileSync(out, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    const match = JSON.parse(lines[0] as string) as {
      player: string;
      rounds: { payoff: number; tokens: number }[];
    };
    expect(match.player).toBe("live");
    expect(match.rounds).toHaveLength(16);
    expect(match.rounds.every((r) => r.tokens === 10)).toBe(true);
    const other = tempDeps();
    try {
      other.store.close();
      await importMatches([out, "--db", other.dbPath, "--source", "from-export"]);
      const again = join(deps.dir, "again.jsonl");
      await exportTo(["matches", "--format", "jsonl", "--db", other.dbPath, "--out", again]);
      expect(readFileSync(again, "utf8")).toBe(readFileSync(out, "utf8"));
    } finally {
      other.dispose();
    }
  });

  it("refuses an unknown kind or format with the valid ones", async () => {
    await expect(exportTo(["votes", "--db", deps.dbPath])).rejects.toThrow(
      /export needs one of decisions, matches, attempts, studies, got "votes"/,
    );
    await expect(exportTo(["decisions", "--format", "parquet", "--db", deps.dbPath])).rejects.toThrow(
      /--format must be one of csv, jsonl, got "parquet"/,
    );
  });
});
