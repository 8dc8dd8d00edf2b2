import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Store } from "../../src/store/store.js";
import { CLI, requireBuiltCli, runCli } from "../support/built-cli.js";
import { oneShotMatch } from "../support/match-record.js";
import { describeOnPostgres, freshPostgresDatabase, TEST_PG, type TestRecord } from "../support/postgres.js";
import { startTurnCountingProxy, type TurnCountingProxy } from "../support/turn-counting-proxy.js";

const at = "2026-12-01T00:00:00.000Z";

const match = (id: string) => oneShotMatch(id, { created_at: at });

describeOnPostgres("the PostgreSQL engine", () => {
  let record: TestRecord;
  let store: Store;
  beforeEach(() => {
    record = freshPostgresDatabase();
    store = new Store(record.location);
  });
  afterEach(() => {
    store.close();
    record.dispose();
  });

  it("rolls back a transaction whose connection dies half-way, then reconnects for the next call", () => {
    const { pid } = store.engine.prepare("SELECT pg_backend_pid() AS pid").get() as { pid: number };
    const admin = new Store(record.location);
    try {
      expect(
        () =>
          store.transaction(() => {
            store.insertMatch(match("half-written"));
            // A read waits for its answer, so the BEGIN and the queued insert reach the server before it.
            expect(store.getMatch("half-written")?.id).toBe("half-written");
            // The server ends this connection mid-transaction (a crash, a failover, an operator's kill).
            admin.engine.prepare("SELECT pg_terminate_backend(?) AS ok").get(pid);
            store.insertMatch(match("never"));
          }),
        // Said as a passing outage, in one sentence; the driver's words stay in the error's detail (the log).
      ).toThrow(/^The record's database is unavailable for a moment/);
      expect(admin.getMatch("half-written")).toBeUndefined();
      // The next call connects afresh and works.
      store.insertMatch(match("after"));
      expect(admin.getMatch("after")?.id).toBe("after");
      const { pid: again } = store.engine.prepare("SELECT pg_backend_pid() AS pid").get() as { pid: number };
      expect(again).not.toBe(pid);
    } finally {
      admin.close();
    }
  });

  it("sends a transaction's BEGIN and its unread writes with the next statement that waits", () => {
    const hops = () => (store.engine as unknown as { requests: number }).requests;
    const before = hops();
    // BEGIN, the INSERT, the record version's UPDATE and COMMIT: one wait for the worker thread.
    store.transaction(() => store.insertMatch(match("batched")));
    expect(hops() - before).toBe(1);
    // A read inside waits for its answer: BEGIN and the INSERT go with it, the rest with the COMMIT.
    const again = hops();
    store.transaction(() => {
      store.insertMatch(match("read-back"));
      expect(store.getMatch("read-back")?.id).toBe("read-back");
    });
    expect(hops() - again).toBe(2);
    expect(store.listMatches({}).map((m) => m.id)).toEqual(["batched", "read-back"]);
  });

  it("reports a constraint violation with its SQLSTATE and keeps the connection usable", () => {
    store.insertMatch(match("m1"));
    let code: unknown;
    try {
      store.insertMatch(match("m1"));
    } catch (error) {
      code = (error as { code?: string }).code;
    }
    expect(code).toBe("23505"); // unique_violation
    expect(store.getMatch("m1")?.id).toBe("m1");
  });

  it("opens read-only for the analysis verbs: nothing can be written through it", () => {
    const reader = new Store(record.location, { readonly: true });
    try {
      expect(() => reader.insertMatch(match("m2"))).toThrow(/read-only/);
      expect(store.getMatch("m2")).toBeUndefined();
    } finally {
      reader.close();
    }
  });
});

describeOnPostgres("the PostgreSQL engine's round trips to the server", () => {
  let record: TestRecord;
  let proxy: TurnCountingProxy;
  let store: Store;
  beforeEach(async () => {
    record = freshPostgresDatabase();
    proxy = await startTurnCountingProxy(record.location);
    store = new Store(proxy.url);
  });
  afterEach(async () => {
    store.close();
    await proxy.close();
    record.dispose();
  });

  const ids = () =>
    store
      .listMatches({})
      .map((m) => m.id)
      .sort();

  it("writes a transaction's BEGIN, INSERT, record-version UPDATE and COMMIT to the socket in one round trip", () => {
    const before = proxy.turns();
    store.transaction(() => store.insertMatch(match("batched")));
    expect(proxy.turns() - before).toBe(1);
    // A read inside waits for its answer: BEGIN, the INSERT and the read in one trip, the rest with COMMIT.
    const again = proxy.turns();
    store.transaction(() => {
      store.insertMatch(match("read-back"));
      expect(store.getMatch("read-back")?.id).toBe("read-back");
    });
    expect(proxy.turns() - again).toBe(2);
    expect(ids()).toEqual(["batched", "read-back"]);
  });

  it("fails a transaction whose queued write breaks a constraint with that write's SQLSTATE, keeping none of it", () => {
    store.insertMatch(match("m1"));
    let code: unknown;
    try {
      store.transaction(() => {
        store.insertMatch(match("m2"));
        store.insertMatch(match("m1"));
      });
    } catch (error) {
      code = (error as { code?: string }).code;
    }
    // The COMMIT written behind the failed INSERT ended the transaction rolled back, not committed.
    expect(code).toBe("23505");
    expect(ids()).toEqual(["m1"]);
    store.insertMatch(match("m3"));
    expect(ids()).toEqual(["m1", "m3"]);
  });

  it("undoes only the savepoint whose queued write fails, and commits the rest of the transaction", () => {
    store.transaction(() => {
      store.insertMatch(match("kept"));
      let code: unknown;
      try {
        store.transaction(() => store.insertMatch(match("kept")));
      } catch (error) {
        code = (error as { code?: string }).code;
      }
      expect(code).toBe("23505");
      store.insertMatch(match("after"));
    });
    expect(ids()).toEqual(["after", "kept"]);
  });
});

describeOnPostgres("--db postgres://… on the CLI", () => {
  it("refuses an unreachable server in one line naming the URL without its password (exit 2)", () => {
    requireBuiltCli();
    // Port 1 on loopback: nothing listens there.
    const run = runCli(["analyze", "robustness", "--db", "postgres://ana:s3cret@127.0.0.1:1/record"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^same-game: Cannot connect to the PostgreSQL record postgres:\/\/ana:\*\*\*@127\.0\.0\.1:1\/record \(/,
    );
    expect(run.stderr).not.toContain("s3cret");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("refuses a database that does not exist, and an empty one for a verb that only reads", () => {
    const url = new URL(TEST_PG as string);
    url.pathname = "/no_such_database_here";
    const missing = runCli(["analyze", "robustness", "--db", url.toString()]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no_such_database_here" does not exist/);
    const empty = freshPostgresDatabase();
    try {
      const run = runCli(["export", "decisions", "--db", empty.location]);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/No record at postgres:\/\/.*: the database is empty/);
    } finally {
      empty.dispose();
    }
  });
});

describeOnPostgres("serve --db postgres://… with the analysis toolset", () => {
  it("answers an analysis tool from its worker thread's own connection, as analyze --json does", async () => {
    requireBuiltCli();
    const record = freshPostgresDatabase();
    const client = new Client({ name: "analyst", version: "1.0.0" });
    try {
      expect(
        runCli(["import", "counts", "--reference", "lore-heydari-2024", "--db", record.location]).status,
      ).toBe(0);
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, "serve", "--db", record.location, "--toolsets", "all"],
          stderr: "ignore",
        }),
      );
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("robustness");
      const result = await client.callTool({ name: "robustness", arguments: { bootstrap: 200 } });
      expect(result.isError).not.toBe(true);
      const cli = runCli(["analyze", "robustness", "--bootstrap", "200", "--json", "--db", record.location]);
      expect(cli.status).toBe(0);
      expect(result.structuredContent).toEqual(JSON.parse(cli.stdout));
      expect(JSON.stringify(result.structuredContent)).toMatch(/gpt-4/);
    } finally {
      await client.close();
      record.dispose();
    }
  });
});
