import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { pdDesign, registerStudy, runCliAsync, scriptedRunArgs, useRunSandbox } from "./runner-harness.js";

// `export model-calls` says of each call whether the endpoint was asked (a reply from the cache was not,
// and costs nothing), whether a provider batch answered it, and what it cost, so the file sums to the
// spend `study show` prints. Without those columns a cached reply read as a paid call.

const box = useRunSandbox("same-game-export-spend-");

interface CallRow {
  readonly cached_from: string | null;
  readonly batch_id: string | null;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cost_usd: number | null;
}

/** What `study show` sums, from the export's rows: paid calls, their tokens, and the cost of all. */
function spend(rows: readonly CallRow[]) {
  const paid = rows.filter((r) => r.cached_from === null);
  return {
    calls: paid.length,
    cached: rows.length - paid.length,
    tokensIn: paid.reduce((sum, r) => sum + r.prompt_tokens, 0),
    tokensOut: paid.reduce((sum, r) => sum + r.completion_tokens, 0),
    usd: rows.reduce((sum, r) => sum + (r.cost_usd ?? 0), 0),
  };
}

describe("export model-calls", () => {
  it("sums, in CSV, JSONL and Parquet, to the spend study show prints for a record with a cached run and a paid run", async () => {
    box.endpoint = await startScriptedEndpoint();
    const cache = join(box.dir, "cache");
    const prices = join(box.dir, "prices.json");
    writeFileSync(
      prices,
      JSON.stringify({ "scripted/payoff-reader": { input_per_mtok: 1, output_per_mtok: 2 } }),
    );
    const design = pdDesign("cached and paid", 3, 31);
    const run = (db: string, study: string, trials: string) =>
      runCliAsync(
        scriptedRunArgs(
          box,
          study,
          ["--cache", cache, "--prices", prices, "--concurrency", "1", "--max-trials", trials],
          db,
        ),
      );
    // Another record plays the study's first two trials: their replies go into the cache.
    const other = join(box.dir, "other.db");
    expect((await run(other, registerStudy(other, design), "2")).status).toBe(0);
    // This record's first two trials come from the cache, the next three from the endpoint.
    const study = registerStudy(box.db, design);
    const played = await run(box.db, study, "5");
    expect(played.status, played.stderr).toBe(0);
    expect(played.stdout).toContain("replies from the cache: 2;");

    const show = await runCliAsync(["study", "show", study, "--db", box.db]);
    const total =
      /\n {2}total: (\d+) calls \((\d+) from the cache\), (\d+) tokens in, (\d+) out, \$(\d+\.\d{4})\n?/.exec(
        show.stdout,
      );
    expect(total, show.stdout).not.toBeNull();
    const [, calls, cached, tokensIn, tokensOut, usd] = total as RegExpExecArray;
    expect([Number(calls), Number(cached)]).toEqual([3, 2]);

    const exported = async (format: string) => {
      const out = join(box.dir, `calls.${format}`);
      const done = await runCliAsync([
        "export",
        "model-calls",
        "--format",
        format,
        "--db",
        box.db,
        "--out",
        out,
      ]);
      expect(done.status, done.stderr).toBe(0);
      return out;
    };
    const csv = (
      parse(readFileSync(await exported("csv"), "utf8"), { columns: true }) as Record<string, string>[]
    ).map((r) => ({
      cached_from: r.cached_from === "" ? null : (r.cached_from as string),
      batch_id: r.batch_id === "" ? null : (r.batch_id as string),
      prompt_tokens: Number(r.prompt_tokens),
      completion_tokens: Number(r.completion_tokens),
      cost_usd: r.cost_usd === "" ? null : Number(r.cost_usd),
    }));
    const jsonl = readFileSync(await exported("jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as CallRow);
    const parquetFile = readFileSync(await exported("parquet"));
    const parquet = (
      (await parquetReadObjects({
        file: parquetFile.buffer.slice(
          parquetFile.byteOffset,
          parquetFile.byteOffset + parquetFile.byteLength,
        ),
      })) as Record<string, unknown>[]
    ).map(
      (r) =>
        ({
          ...r,
          prompt_tokens: Number(r.prompt_tokens),
          completion_tokens: Number(r.completion_tokens),
        }) as CallRow,
    );

    for (const rows of [csv, jsonl, parquet]) {
      const sums = spend(rows);
      expect(sums).toMatchObject({
        calls: Number(calls),
        cached: Number(cached),
        tokensIn: Number(tokensIn),
        tokensOut: Number(tokensOut),
      });
      expect(sums.usd.toFixed(4)).toBe(usd);
      // A cached reply cost nothing; no call of this run went through a batch.
      for (const row of rows.filter((r) => r.cached_from !== null)) expect(row.cost_usd).toBe(0);
      expect(rows.every((r) => r.batch_id === null)).toBe(true);
    }
  }, 90_000);
});
