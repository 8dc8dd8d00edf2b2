import { readFileSync } from "node:fs";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { parseCommandArgs } from "../../src/cli/command.js";
import { eraseCommand } from "../../src/cli/erase.js";
import { principalOfToken } from "../../src/mcp/http/bearer-tokens.js";
import { oneShotCells } from "../../src/queries/one-shot-cells.js";
import type { EngineKind } from "../../src/store/engines/engine.js";
import { connectClient, tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

// A participant withdraws: `same-game erase --player alice` must leave nothing of alice in the record —
// no table row holding her label, her client's name or her words (a reply with a rationale) — while bob's
// play, and every analysis of it, stays as it was. Alice plays the prisoner's dilemma 3 times under each
// of business and friend-sharing (always "cooperate"-labelled first choice), bob 2 times each; an analysis
// is asked first, so the result cache holds alice's numbers before the erasure.

const MARK = "ALICE-PRIVATE-7f3a";
const eraseCli = async (argv: string[]) => eraseCommand.run(parseCommandArgs(eraseCommand, argv));

type View = { match_id: string; labels: string[] };

describeEachEngine("erase a participant", (engine: EngineKind) => {
  let deps: ReturnType<typeof tempDeps>;

  /** Every row of every table of the record, as text (the record's schema bookkeeping left out). */
  const everyRow = (): string[] => {
    const tables =
      engine === "sqlite"
        ? (deps.store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
            name: string;
          }[])
        : (deps.store.engine
            .prepare(
              "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
            )
            .all() as { name: string }[]);
    return tables
      .filter((t) => t.name !== "schema_migrations")
      .flatMap((t) =>
        (deps.store.engine.prepare(`SELECT * FROM ${t.name}`).all() as object[]).map(
          (row) => `${t.name}: ${JSON.stringify(row)}`,
        ),
      );
  };

  const play = async (player: string, clientName: string, times: number, rationale?: string) => {
    const client = await connectClient(deps, { player, clientName });
    for (const framing of ["business", "friend-sharing"]) {
      for (let t = 0; t < times; t++) {
        const view = (
          await client.callTool({ name: "start_match", arguments: { game: "prisoners-dilemma", framing } })
        ).structuredContent as View;
        await client.callTool({
          name: "submit_move",
          arguments: {
            match_id: view.match_id,
            round: 1,
            choice: view.labels[0],
            ...(rationale === undefined ? {} : { rationale: `${rationale} ${t}` }),
          },
        });
      }
    }
    return client;
  };

  beforeEach(() => {
    deps = tempDeps(engine);
  });
  afterEach(() => deps.dispose());

  it("leaves no row naming the player or holding their words, empties the cache, and keeps bob's play as it was", async () => {
    await (await play("bob", "bob-host", 2)).close();
    const bobCells = oneShotCells(deps.store, { players: ["bob"], variants: ["base"] });
    const analyst = await play("alice", `${MARK}-laptop`, 3, `${MARK} my reasons`);
    await analyst.callTool({ name: "robustness", arguments: { bootstrap: 200 } });
    const before = everyRow();
    expect(before.filter((r) => r.includes(MARK)).length).toBeGreaterThan(6);
    expect(before.some((r) => r.startsWith("analysis_cache:") && r.includes("alice"))).toBe(true);
    await analyst.close();
    const version = deps.store.recordVersion();

    await eraseCli(["--player", "alice", "--db", deps.dbPath]);

    const after = everyRow();
    expect(after.filter((r) => r.includes("alice") || r.includes(MARK))).toEqual([]);
    expect(deps.store.recordVersion()).toBeGreaterThan(version);
    // Bob's 4 decisions, tallied exactly as before: 2 per framing, each the first listed label.
    expect(oneShotCells(deps.store, { players: ["bob"], variants: ["base"] })).toEqual(bobCells);
    const tallied = after
      .filter((r) => r.startsWith("decision_tallies:"))
      .map((r) => JSON.parse(r.slice(18)));
    expect(tallied.reduce((sum, t: { count: number | string }) => sum + Number(t.count), 0)).toBe(4);
    expect(after.filter((r) => r.startsWith("matches:")).length).toBe(4);
    expect(oneShotCells(deps.store, { players: ["alice"], variants: ["base"] })).toEqual([]);

    if (engine === "sqlite") {
      // The file and its -wal hold the text no longer (secure_delete, VACUUM, a TRUNCATE checkpoint).
      const bytes = Buffer.concat([readFileSync(deps.dbPath), readFileSync(`${deps.dbPath}-wal`)]);
      expect(bytes.includes(MARK)).toBe(false);
      expect(bytes.includes("alice")).toBe(false);
    }
  });

  it("erases one MCP session's matches and nothing else of the player", async () => {
    await (await play("alice", "first-host", 1)).close();
    await (await play("alice", "second-host", 2, MARK)).close();
    const [second] = deps.store.engine
      .prepare("SELECT id FROM sessions WHERE client_name = 'second-host'")
      .all() as { id: string }[];
    await eraseCli(["--session", (second as { id: string }).id, "--db", deps.dbPath]);
    const after = everyRow();
    expect(after.filter((r) => r.includes(MARK) || r.includes("second-host"))).toEqual([]);
    // The first session's 2 matches (one per framing) remain, tallied once each.
    expect(after.filter((r) => r.startsWith("matches:")).length).toBe(2);
    const counts = oneShotCells(deps.store, { players: ["alice"], variants: ["base"] }).map((c) =>
      Object.values(c.counts).reduce((a, b) => a + b, 0),
    );
    expect(counts).toEqual([1, 1]);
  });

  it("erases the HTTP row of a session that only connected (its client name and initialize params)", async () => {
    const now = Date.now();
    deps.store.openHttpSession(
      {
        id: "http-only-session",
        principal: "local",
        protocol_version: "2025-06-18",
        initialize_params: JSON.stringify({ clientInfo: { name: `${MARK}-browser`, version: "1" } }),
        client_name: `${MARK}-browser`,
        client_version: "1",
        created_at: now,
      },
      { maxSessions: 10, maxSessionsPerPrincipal: 10, liveSince: now - 60_000, ratePerSecond: 5 },
    );
    expect(everyRow().filter((r) => r.includes(MARK)).length).toBe(1);
    await eraseCli(["--session", "http-only-session", "--db", deps.dbPath]);
    expect(everyRow().filter((r) => r.includes(MARK))).toEqual([]);
  });

  it("erases one bearer token's play where participants share a player label (the host's client name and version)", async () => {
    const withdrawn = principalOfToken("token-of-the-withdrawn-participant");
    const staying = principalOfToken("token-of-another-participant");
    const play = async (principal: string, times: number, rationale: string) => {
      const client = await connectClient(deps, { clientName: "claude-ai", principal });
      for (let t = 0; t < times; t++) {
        const view = (
          await client.callTool({
            name: "start_match",
            arguments: { game: "prisoners-dilemma", framing: "business" },
          })
        ).structuredContent as View;

        await client.callTool({
          name: "submit_move",
          arguments: { match_id: view.match_id, round: 1, choice: view.labels[0], rationale },
        });
      }
      await client.close();
    };
    await play(withdrawn, 3, MARK);
    await play(staying, 2, "other reasons");
    expect(
      everyRow().filter((r) => r.startsWith("matches:") && r.includes('"player":"claude-ai@1.0.0"')).length,
    ).toBe(5);

    await eraseCli(["--principal", withdrawn, "--db", deps.dbPath]);

    const after = everyRow();
    expect(after.filter((r) => r.includes(withdrawn) || r.includes(MARK))).toEqual([]);
    // The other participant's 2 matches under the same label stay, tallied.
    expect(after.filter((r) => r.startsWith("matches:") && r.includes(staying)).length).toBe(2);
    const decided = oneShotCells(deps.store, { players: ["claude-ai@1.0.0"], variants: ["base"] }).map((c) =>
      Object.values(c.counts).reduce((a, b) => a + b, 0),
    );
    expect(decided).toEqual([2]);
    await expect(eraseCli(["--principal", "not-a-digest", "--db", deps.dbPath])).rejects.toThrow(
      /--principal is the SHA-256 of the participant's bearer token, 64 lowercase hex digits .*got "not-a-digest"/,
    );
  });

  it("refuses a player the record does not hold, naming it, and erases nothing", async () => {
    await (await play("bob", "bob-host", 1)).close();
    await expect(eraseCli(["--player", "alicia", "--db", deps.dbPath])).rejects.toThrow(
      /holds nothing of player "alicia": nothing erased/,
    );
    await expect(eraseCli(["--db", deps.dbPath])).rejects.toThrow(
      /exactly one of --player LABEL, --principal SHA256 or --session ID/,
    );
    expect(everyRow().filter((r) => r.startsWith("matches:")).length).toBe(2);
  });

  it("--dry-run changes no row and not the record version, and counts what the erasure then removes", async () => {
    await (await play("bob", "bob-host", 1)).close();
    await (await play("alice", `${MARK}-laptop`, 2, `${MARK} my reasons`)).close();
    const before = everyRow();
    const version = deps.store.recordVersion();
    await eraseCli(["--player", "alice", "--dry-run", "--db", deps.dbPath]);
    expect(everyRow()).toEqual(before);
    expect(deps.store.recordVersion()).toBe(version);
    const preview = deps.store.previewErasure({ player: "alice" });
    expect(everyRow()).toEqual(before);
    // Alice played 2 trials under each of two framings: 4 matches, each one decision and one attempt.
    expect([preview.matches, preview.decisions, preview.attempts]).toEqual([4, 4, 4]);
    expect(deps.store.eraseFromRecord({ player: "alice" })).toEqual(preview);
  });

  // On PostgreSQL the record's clock is the database's: a run's lease is live by it, whatever the clock of
  // the machine erasing says (an SQLite record's clock is its machine's own, so there is nothing to skew).
  it.skipIf(engine === "sqlite")(
    "refuses a player whose run holds a live lease on the record's clock, with this machine's clock 10 minutes ahead",
    async () => {
      await (await play("alice", "alice-host", 1)).close();
      const now = deps.store.now();
      const at = new Date(now).toISOString();
      deps.store.insertRunLease({
        study_id: "study-elsewhere",
        player: "alice",
        holder: "another run",
        pid: 1,
        host: "another-host",
        pid_scope: "another-host",
        since: at,
        renewed_at: at,
        expires_at: new Date(now + 60_000).toISOString(),
      });
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10 * 60_000 });
      try {
        await expect(eraseCli(["--player", "alice", "--db", deps.dbPath])).rejects.toThrow(
          /A same-game run is playing study study-elsewhere as "alice" \(pid 1 on another-host\)/,
        );
      } finally {
        vi.useRealTimers();
      }
      expect(everyRow().filter((r) => r.startsWith("matches:")).length).toBe(2);
    },
  );
});
