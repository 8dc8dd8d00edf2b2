import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { parquetReadObjects } from "hyparquet";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { exportCommand } from "../../src/cli/export.js";
import { LEADERBOARD_SCHEMA } from "../../src/exports/leaderboard-table.js";
import { compareReport } from "../../src/queries/compare-query.js";
import { tempDeps } from "../support/harness.js";
import { importCounts } from "../support/imported-counts.js";
import { documentedColumns, parquetColumns } from "../support/parquet-schemas.js";

// `export leaderboard` on records built from counts a reader can check by hand: the ranks of `compare`,
// one row per (measure, group), with the filters that made them.

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

const exportTo = async (argv: string[]) => exportCommand.run(parseCommandArgs(exportCommand, argv));

/** Exports the leaderboard (B = 2000, seed 3) in `format` with the `extra` flags; the file's path. */
async function exportAs(format: string, extra: string[] = []): Promise<string> {
  const out = join(deps.dir, `leaderboard.${format}`);
  const settings = ["--bootstrap", "2000", "--seed", "3", "--format", format];
  await exportTo(["leaderboard", "--db", deps.dbPath, ...settings, "--out", out, ...extra]);
  return out;
}

async function exportCsv(extra: string[] = []): Promise<Record<string, string>[]> {
  const text = readFileSync(await exportAs("csv", extra), "utf8");
  expect(text.split("\n")[0]).toBe(Object.keys(LEADERBOARD_SCHEMA).join(","));
  // The R rows: λ and exploitability rows follow them when the games have payoffs (compare's other measures).
  return (parse(text, { columns: true }) as Record<string, string>[]).filter((r) => r.measure === "R");
}

describe("same-game export leaderboard", () => {
  it("writes the documented Parquet schema whether every estimate is whole or not", async () => {
    await importCounts(deps, {
      dominant: { business: 0, friend: 0 },
      steady: { business: 0, friend: 0 },
      swayed: { business: 3, friend: 27 },
    });
    const documented = documentedColumns("leaderboard", Object.keys(LEADERBOARD_SCHEMA));
    // Two always-dominant players: R = 1 and its upper bound 1 for both, every estimate a whole number.
    const whole = await exportAs("parquet", ["--players", "dominant,steady"]);
    const bytes = readFileSync(whole);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const [dominant] = (await parquetReadObjects({ file })) as Record<string, unknown>[];
    expect(dominant).toMatchObject({ measure: "R", estimate: 1, ci_high: 1, rank: 1n });
    expect(parquetColumns(whole)).toEqual(documented);
    expect(parquetColumns(await exportAs("parquet", ["--players", "dominant,swayed"]))).toEqual(documented);
  });

  it("gives two players with identical counts one tied group, both with the rank interval [1, 2]", async () => {
    await importCounts(deps, { alpha: { business: 20, friend: 10 }, beta: { business: 20, friend: 10 } });
    const rows = await exportCsv();
    expect(rows.map((r) => [r.measure, r.group, r.rank_ci_low, r.rank_ci_high, r.tied_group])).toEqual([
      ["R", "alpha", "1", "2", "1"],
      ["R", "beta", "1", "2", "1"],
    ]);
    // R = 1 − JSD/log 2 of (2/3, 1/3) against (1/3, 2/3), the same for both.
    expect(rows[0]?.estimate).toBe(rows[1]?.estimate);
    expect(Number(rows[0]?.estimate)).toBeCloseTo(0.918, 3);
    expect(rows[0]).toMatchObject({
      by: "player",
      confidence: "0.95",
      bootstrap: "2000",
      seed: "3",
      variant: "base",
      study_id: "",
      framings: '["business","friend-sharing"]',
      players: "",
      games: "",
      ranked_games: '["prisoners-dilemma"]',
    });
  });

  it("ranks an always-dominant player first with the rank interval [1, 1], above a story-swayed one", async () => {
    await importCounts(deps, { swayed: { business: 3, friend: 27 }, dominant: { business: 0, friend: 0 } });
    const rows = await exportCsv();
    expect(
      rows.map((r) => [r.group, r.estimate, r.rank, r.rank_ci_low, r.rank_ci_high, r.tied_group]),
    ).toEqual([
      ["dominant", "1", "1", "1", "1", "1"],
      ["swayed", rows[1]?.estimate, "2", "2", "2", "2"],
    ]);
    expect(Number(rows[1]?.estimate)).toBeLessThan(0.5);
  });

  it("is the ranks of compare under the same filters, in CSV, JSONL and Parquet alike", async () => {
    await importCounts(deps, {
      dominant: { business: 0, friend: 0 },
      swayed: { business: 3, friend: 27 },
      other: { business: 12, friend: 15 },
    });
    const filter = ["--players", "swayed,other", "--framings", "business,friend-sharing"];
    const csv = await exportCsv(filter);
    const compared = compareReport(deps, {
      players: ["swayed", "other"],
      framings: ["business", "friend-sharing"],
      bootstrap: 2000,
      seed: 3,
    });
    expect(csv.map((r) => r.group).sort()).toEqual(["other", "swayed"]);
    for (const row of csv) {
      const rank = compared.ranks.find((r) => r.measure === "R" && r.group === row.group);
      expect(Number(row.estimate)).toBe(rank?.estimate);
      expect([Number(row.ci_low), Number(row.ci_high)]).toEqual(rank?.ci);
      expect([Number(row.rank_ci_low), Number(row.rank_ci_high)]).toEqual(rank?.rank.ci);
      expect(row.players).toBe('["swayed","other"]');
    }
    const jsonl = readFileSync(await exportAs("jsonl", filter), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r.measure === "R");
    expect(jsonl.map((r) => [r.group, r.estimate, r.rank_ci_low, r.rank_ci_high])).toEqual(
      csv.map((r) => [r.group, Number(r.estimate), Number(r.rank_ci_low), Number(r.rank_ci_high)]),
    );
    const buffer = readFileSync(await exportAs("parquet", filter));
    const file = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
    const parquet = ((await parquetReadObjects({ file })) as Record<string, unknown>[]).filter(
      (r) => r.measure === "R",
    );
    expect(parquet.map((r) => [r.group, Number(r.rank), r.ci_low])).toEqual(
      csv.map((r) => [r.group, Number(r.rank), Number(r.ci_low)]),
    );
  });

  it("refuses bad flags and a record with one player in one line, naming the value and the valid ones", async () => {
    await importCounts(deps, { alone: { business: 20, friend: 10 } });
    await expect(exportTo(["leaderboard", "--db", deps.dbPath, "--by", "mood"])).rejects.toThrow(
      /--by must be one of player, style, client, model, got "mood"/,
    );
    await expect(exportTo(["leaderboard", "--db", deps.dbPath, "--variants", "base"])).rejects.toThrow(
      /export leaderboard does not take --variants \(the leaderboard ranks one --variant\)/,
    );
    await expect(exportTo(["decisions", "--db", deps.dbPath, "--by", "model"])).rejects.toThrow(
      /export decisions does not take --by \(only export leaderboard takes --by, --variant/,
    );
    await expect(exportTo(["leaderboard", "--db", deps.dbPath])).rejects.toThrow(
      /needs at least two groups; the record has only 'alone'/,
    );
  });
});
