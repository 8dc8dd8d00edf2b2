import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { parse } from "csv-parse/sync";
import { parquetReadObjects } from "hyparquet";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { exportCommand } from "../../src/cli/export.js";
import { importCommand } from "../../src/cli/import.js";
import {
  ATTEMPT_SCHEMA,
  COUNT_SCHEMA,
  DECISION_SCHEMA,
  MATCH_SCHEMA,
  MODEL_CALL_SCHEMA,
  STUDY_SCHEMA,
} from "../../src/exports/export-tables.js";
import { packageRoot } from "../../src/package-root.js";
import type { RoundView as View } from "../../src/play/match-view.js";
import { call, connectClient, tempDeps } from "../support/harness.js";
import { documentedColumns, parquetColumns } from "../support/parquet-schemas.js";

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
    expect(Object.keys(rows[0] ?? {})).toEqual(Object.keys(DECISION_SCHEMA));
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

  it("round-trips a match's invalid replies: the imported match has the original's repeated metrics", async () => {
    const view = await call<View>(client, "start_match", {
      game: "repeated-pd",
      opponent: "tit-for-tat",
      player: "unsure",
      seed: 7,
    });
    const submit = (round: number, choice: string) =>
      client.callTool({
        name: "submit_move",
        arguments: { match_id: view.match_id, round, choice, tokens: 10 },
      });
    for (let round = 1; round <= 16; round++) {
      // Round 3: five replies that choose nothing, so the round is void; round 5: two, then a valid one.
      if (round === 3) for (let k = 0; k < 5; k++) await submit(round, "maybe both");
      else {
        if (round === 5) for (let k = 0; k < 2; k++) await submit(round, "hmm");
        await submit(round, view.labels[0] as string);
      }
    }
    const out = join(deps.dir, "unsure.jsonl");
    await exportTo([
      "matches",
      "--format",
      "jsonl",
      "--players",
      "unsure",
      "--db",
      deps.dbPath,
      "--out",
      out,
    ]);
    const rounds = (JSON.parse(readFileSync(out, "utf8")) as { rounds: { invalid_attempts?: number }[] })
      .rounds;
    expect(rounds.map((r) => r.invalid_attempts ?? 0)).toEqual([
      0, 0, 5, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
    expect("invalid_attempts" in (rounds[0] as object)).toBe(false);

    const metrics = async (c: Client, invalid_rounds: string) => {
      const result = await call<{ matches: Record<string, unknown>[]; cells: unknown[] }>(
        c,
        "repeated_metrics",
        {
          players: ["unsure"],
          invalid_rounds,
        },
      );
      // The id and the source label say where a match is recorded, not how it was played.
      return {
        matches: result.matches.map(({ match_id: _id, source: _source, ...m }) => m),
        cells: result.cells,
      };
    };
    const other = tempDeps();
    const otherClient = await connectClient(other);
    try {
      await importMatches([out, "--db", other.dbPath, "--source", "from-export"]);
      for (const scoring of ["loss", "counterfactual-study"]) {
        const original = await metrics(client, scoring);
        // 7 invalid replies; one failed round of 16.
        expect(original.matches[0]).toMatchObject({ invalid_attempts: 7, failure_rate: 0.0625 });
        expect(await metrics(otherClient, scoring)).toEqual(original);
      }
      const again = join(deps.dir, "unsure-again.jsonl");
      await exportTo(["matches", "--format", "jsonl", "--db", other.dbPath, "--out", again]);
      expect(readFileSync(again, "utf8")).toBe(readFileSync(out, "utf8"));
    } finally {
      await otherClient.close();
      other.dispose();
    }
  });

  it("writes the runner's per-call log (model-calls) as CSV and JSONL, filtered by player like the others", async () => {
    // A runner sends the calls behind a reply in the request _meta of submit_move: here one retried call.
    const runnerCall = {
      provider: "openai",
      requested_model: "gpt-x",
      reported_model: "gpt-x-2026-01-01",
      mode: "text",
      style: "zero-shot",
      sample_index: 0,
      decoding: { temperature: 0 },
      prompt_tokens: 120,
      completion_tokens: 7,
      latency_ms: 812.5,
      retries: 2,
      finish_reason: "stop",
      raw_reply: 'I choose "Cooperate", because, well.\nYes.',
      called_at: "2026-12-01T00:00:00.000Z",
    };
    const view = await call<View>(client, "start_match", {
      game: "prisoners-dilemma",
      seed: 3,
      player: "runner",
    });
    const submitted = await client.callTool({
      name: "submit_move",
      arguments: { match_id: view.match_id, round: 1, choice: view.labels[0] as string },
      _meta: { "same-game/model-calls": [runnerCall] },
    });
    expect(submitted.isError ?? false).toBe(false);
    await call(client, "start_match", { game: "prisoners-dilemma", seed: 4, player: "host" });

    const csv = join(deps.dir, "calls.csv");
    await exportTo(["model-calls", "--db", deps.dbPath, "--out", csv]);
    const rows = parse(readFileSync(csv, "utf8"), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      match_id: view.match_id,
      round: "1",
      player: "runner",
      requested_model: "gpt-x",
      reported_model: "gpt-x-2026-01-01",
      latency_ms: "812.5",
      retries: "2",
      prompt_tokens: "120",
      completion_tokens: "7",
      raw_reply: runnerCall.raw_reply,
    });
    const jsonl = join(deps.dir, "calls.jsonl");
    await exportTo([
      "model-calls",
      "--format",
      "jsonl",
      "--players",
      "runner",
      "--db",
      deps.dbPath,
      "--out",
      jsonl,
    ]);
    expect(JSON.parse(readFileSync(jsonl, "utf8").trim())).toMatchObject({ retries: 2, latency_ms: 812.5 });
    const none = join(deps.dir, "none.jsonl");
    await exportTo([
      "model-calls",
      "--format",
      "jsonl",
      "--players",
      "host",
      "--db",
      deps.dbPath,
      "--out",
      none,
    ]);
    expect(readFileSync(none, "utf8")).toBe("");
  });

  it("refuses an unknown kind or format with the valid ones", async () => {
    await expect(exportTo(["votes", "--db", deps.dbPath])).rejects.toThrow(
      /export needs one of decisions, matches, attempts, model-calls, studies, counts, leaderboard, got "votes"/,
    );
    await expect(exportTo(["decisions", "--format", "xlsx", "--db", deps.dbPath])).rejects.toThrow(
      /--format must be one of csv, jsonl, parquet, got "xlsx"/,
    );
    await expect(exportTo(["decisions", "--format", "parquet", "--db", deps.dbPath])).rejects.toThrow(
      /--format parquet writes a binary file: give its path with --out FILE.parquet/,
    );
  });

  it("writes every table as Parquet that an independent reader returns with the CSV's values and typed columns", async () => {
    const view = await call<View>(client, "start_match", {
      game: "prisoners-dilemma",
      framing: "business",
      opponent: "always-defect",
      player: "parquet-agent",
    });
    await call(client, "submit_move", {
      match_id: view.match_id,
      round: 1,
      choice: `"${view.labels[0]}", surely`,
    });
    const repeated = await call<View>(client, "start_match", {
      game: "repeated-pd",
      opponent: "tit-for-tat",
    });
    await call(client, "submit_move", { match_id: repeated.match_id, round: 1, choice: repeated.labels[0] });
    for (const kind of ["decisions", "matches", "attempts", "model-calls", "studies", "counts"]) {
      const file = join(deps.dir, `${kind}.parquet`);
      const csv = join(deps.dir, `${kind}.csv`);
      await exportTo([kind, "--db", deps.dbPath, "--format", "parquet", "--out", file]);
      await exportTo([kind, "--db", deps.dbPath, "--out", csv]);
      const bytes = readFileSync(file);
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      const rows = (await parquetReadObjects({ file: buffer })) as Record<string, unknown>[];
      const csvRows = parse(readFileSync(csv, "utf8"), { columns: true }) as Record<string, string>[];
      expect(rows, kind).toHaveLength(csvRows.length);
      // Every value reads back as the CSV wrote it: numbers as numbers, nulls as empty fields.
      rows.forEach((row, i) => {
        const text = Object.fromEntries(
          Object.entries(row).map(([k, v]) => [
            k,
            v === null ? "" : typeof v === "bigint" ? v.toString() : String(v),
          ]),
        );
        expect(text, `${kind} row ${i}`).toEqual(csvRows[i]);
      });
    }
    const file = join(deps.dir, "decisions.parquet");
    const bytes = readFileSync(file);
    const decisions = (await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    })) as Record<string, unknown>[];
    const oneShot = decisions.find((d) => d.match_id === view.match_id) as Record<string, unknown>;
    expect(oneShot).toMatchObject({
      round: 1n,
      player: "parquet-agent",
      raw_text: `"${view.labels[0]}", surely`,
      source: null,
    });
    expect(typeof oneShot.payoff).toBe("number");
  });

  it("writes counts without a session as null (JSONL, Parquet) and an empty CSV field, which import counts round-trips byte for byte", async () => {
    const counts = join(deps.dir, "published.csv");
    writeFileSync(
      counts,
      [
        "player,game,framing,session,action,count",
        "gpt,prisoners-dilemma,business,run-1,cooperate,2",
        "gpt,prisoners-dilemma,business,,defect,3",
      ].join("\n"),
    );
    await importCommand.run(parseCommandArgs(importCommand, ["counts", counts, "--db", deps.dbPath]));
    const out = (format: string) => join(deps.dir, `counts.${format}`);
    for (const format of ["csv", "jsonl", "parquet"]) {
      await exportTo(["counts", "--db", deps.dbPath, "--format", format, "--out", out(format)]);
    }
    const csv = readFileSync(out("csv"), "utf8");
    expect(csv).toBe(
      "player,game,variant,framing,session,action,count\n" +
        "gpt,prisoners-dilemma,base,business,,defect,3\n" +
        "gpt,prisoners-dilemma,base,business,run-1,cooperate,2\n",
    );
    const jsonl = readFileSync(out("jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(jsonl.map((r) => [r.session, r.count])).toEqual([
      [null, 3],
      ["run-1", 2],
    ]);
    const bytes = readFileSync(out("parquet"));
    const parquet = (await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    })) as Record<string, unknown>[];
    expect(parquet.map((r) => [r.session, r.count])).toEqual([
      [null, 3n],
      ["run-1", 2n],
    ]);
    // export → import → export: the same bytes.
    const other = tempDeps();
    try {
      await importCommand.run(parseCommandArgs(importCommand, ["counts", out("csv"), "--db", other.dbPath]));
      const again = join(other.dir, "again.csv");
      await exportTo(["counts", "--db", other.dbPath, "--out", again]);
      expect(readFileSync(again, "utf8")).toBe(csv);
    } finally {
      other.dispose();
    }
  });

  it("writes what an imported transcript does not say (choice order, opponent parameters, horizon) as null", async () => {
    const view = await call<View>(client, "start_match", {
      game: "prisoners-dilemma",
      framing: "business",
      opponent: "always-defect",
      player: "live-agent",
    });
    await call(client, "submit_move", { match_id: view.match_id, round: 1, choice: view.labels[0] });
    await importMatches(["--reference", "llm-gm-thesis-2026", "--db", deps.dbPath]);
    const read = async (kind: string) => {
      const file = join(deps.dir, `${kind}.jsonl`);
      await exportTo([kind, "--db", deps.dbPath, "--format", "jsonl", "--out", file]);
      return readFileSync(file, "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    };
    const shown = ({
      player,
      source,
      style,
      history_mode,
      action_order,
      opponent_params,
      reveal_horizon,
    }: Record<string, unknown>) => ({
      player,
      source,
      style,
      history_mode,
      action_order,
      opponent_params,
      reveal_horizon,
    });
    const decisions = await read("decisions");
    const live = decisions.find((d) => d.player === "live-agent") as Record<string, unknown>;
    expect((live.action_order as string[]).slice().sort()).toEqual(["cooperate", "defect"]);
    expect(shown(live)).toMatchObject({ source: null, opponent_params: {}, reveal_horizon: false });
    const imported = decisions.filter((d) => d.source === "llm-gm-thesis-2026");
    expect(imported.length).toBeGreaterThan(0);
    for (const d of imported) {
      expect(shown(d)).toEqual({
        player: d.player,
        source: "llm-gm-thesis-2026",
        style: "unspecified",
        history_mode: "unspecified",
        action_order: null,
        opponent_params: null,
        reveal_horizon: null,
      });
    }
    // The matches table in CSV (its JSONL is the import format, which has no such field).
    const csv = join(deps.dir, "matches.csv");
    await exportTo(["matches", "--db", deps.dbPath, "--out", csv]);
    const matches = parse(readFileSync(csv, "utf8"), { columns: true }) as Record<string, string>[];
    expect(matches.map((m) => [m.source, m.action_order === ""])).toEqual([
      ["", false],
      ["llm-gm-thesis-2026", true],
      ["llm-gm-thesis-2026", true],
    ]);
  });

  it("gives every table one Parquet schema, the documented one, whatever the rows exported hold", async () => {
    // A live decision without tokens reported and with whole payoffs, beside imported transcripts with tokens.
    const view = await call<View>(client, "start_match", {
      game: "prisoners-dilemma",
      framing: "business",
      opponent: "always-defect",
      player: "no-tokens",
    });
    await call(client, "submit_move", { match_id: view.match_id, round: 1, choice: view.labels[1] });
    await importMatches(["--reference", "llm-gm-thesis-2026", "--db", deps.dbPath]);
    const schemas = {
      decisions: DECISION_SCHEMA,
      matches: MATCH_SCHEMA,
      attempts: ATTEMPT_SCHEMA,
      "model-calls": MODEL_CALL_SCHEMA,
      studies: STUDY_SCHEMA,
      counts: COUNT_SCHEMA,
    };
    for (const [kind, schema] of Object.entries(schemas)) {
      const documented = documentedColumns(kind, Object.keys(schema));
      // Every tokens null (live) or whole (imported); no model calls and no study anywhere (empty files).
      for (const players of ["no-tokens", "claude-sonnet-4"]) {
        const file = join(deps.dir, `${kind}-${players}.parquet`);
        await exportTo([
          kind,
          "--db",
          deps.dbPath,
          "--players",
          players,
          "--format",
          "parquet",
          "--out",
          file,
        ]);
        expect(parquetColumns(file), `${kind} of ${players}`).toEqual(documented);
      }
    }
    const file = join(deps.dir, "decisions-no-tokens.parquet");
    const bytes = readFileSync(file);
    const [row] = (await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    })) as Record<string, unknown>[];
    // The payoff is whole (points of the prisoner's dilemma), yet a DOUBLE as every payoff is.
    expect(row).toMatchObject({ tokens: null, reveal_horizon: false, round: 1n });
    expect([typeof row?.payoff, Number.isInteger(row?.payoff)]).toEqual(["number", true]);
  });
});
